"""work.py - mutual recursion and a helper, for Python's profilers."""


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def count_even(k):
    return sum(1 for i in range(k) if is_even(i % 12)) + len(str(k))


if __name__ == "__main__":
    import sys
    if len(sys.argv) > 1 and sys.argv[1] == "yappi":
        import yappi
        yappi.set_clock_type("cpu")
        yappi.start()
        count_even(300)
        yappi.stop()
        yappi.get_func_stats().save(sys.argv[2], type="callgrind")
    else:
        print(count_even(300))
