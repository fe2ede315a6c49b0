<?php
// parity.php - mutual recursion and a few internal calls, for Xdebug.
function is_even($n) { return $n == 0 ? true : is_odd($n - 1); }
function is_odd($n) { return $n == 0 ? false : is_even($n - 1); }
function count_even($k) {
	$c = 0;
	for ($i = 0; $i < $k; $i++)
		if (is_even($i % 12))
			$c++;
	return $c + strlen(str_repeat("x", 10));
}
echo count_even(40), "\n";
