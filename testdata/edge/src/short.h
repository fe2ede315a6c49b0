/* short.h: three lines; the profile has data for line 10 */
static int short_h;
/* end */
