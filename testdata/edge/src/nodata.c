nodata.c: a file the profile never mentions
