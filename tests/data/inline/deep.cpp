#include <vector>
#include <map>
#include <string>
#include <algorithm>
#include <numeric>
#include <cstdio>
template <int N> struct Deep { static inline __attribute__((always_inline)) long go(long x) { return Deep<N - 1>::go(x * 3 + N) ^ (x >> 3); } };
template <> struct Deep<0> { static inline long go(long x) { return x; } };
__attribute__((noinline)) long hot(long x) { long s = 0; for (int i = 0; i < 6000; i++) s += Deep<14>::go(x + i); return s; }
__attribute__((noinline)) long sorter(int n) { std::vector<std::string> v; for (int i = 0; i < n; i++) v.push_back(std::to_string(i * 7919 % 1000)); std::sort(v.begin(), v.end()); std::map<std::string, int> m; for (auto &s : v) m[s]++; return m.size(); }
int main() { long t = 0; for (int k = 0; k < 60000; k++) { t += hot(k); if (k % 20000 == 0) t += sorter(20000); } printf("%ld\n", t); }
