# work.pl - mutual recursion and a helper, for NYTProf.
use strict;
use warnings;

sub is_odd;
sub is_even { my $n = shift; return $n == 0 ? 1 : is_odd($n - 1); }
sub is_odd { my $n = shift; return $n == 0 ? 0 : is_even($n - 1); }
sub count_even {
	my $k = shift;
	my $c = 0;
	for my $i (0 .. $k - 1) { $c++ if is_even($i % 12); }
	return $c + length("x" x 10);
}
print count_even(300), "\n";
