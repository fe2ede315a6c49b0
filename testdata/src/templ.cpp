// templ.cpp - C++ test program with long template names for cg-annotate.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

template <typename Key, typename Value>
struct Table {
	std::map<Key, std::vector<Value>> rows;

	void
	add(const Key &k, const Value &v)
	{
		rows[k].push_back(v);
	}

	std::size_t
	count() const
	{
		std::size_t n = 0;
		for (const auto &r : rows)
			n += r.second.size();
		return n;
	}
};

int
main()
{
	Table<std::string, std::pair<int, double>> t;

	for (int i = 0; i < 40; i++)
		t.add(std::string("key") + std::to_string(i % 7),
		    std::make_pair(i, i * 0.5));
	std::printf("%zu\n", t.count());
	return 0;
}
