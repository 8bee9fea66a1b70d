#pragma once
// A closed low-poly torus of n x m quads (ring radius 1, tube radius r) as
// OBJ text: the coarse, clean user mesh the meshing and drop tests feed to
// the pipeline (issue 41 item 8).
#include <cmath>
#include <sstream>
#include <string>

namespace tetlab::test {

inline std::string lowPolyTorusObj(int n, int m, double r) {
  std::ostringstream o;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      const double u = 2.0 * M_PI * i / n, v = 2.0 * M_PI * j / m;
      o << "v " << (1.0 + r * std::cos(v)) * std::cos(u) << " " << (1.0 + r * std::cos(v)) * std::sin(u) << " "
        << r * std::sin(v) << "\n";
    }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      const int a = i * m + j, b = ((i + 1) % n) * m + j, c = ((i + 1) % n) * m + (j + 1) % m, d = i * m + (j + 1) % m;
      o << "f " << a + 1 << " " << b + 1 << " " << c + 1 << " " << d + 1 << "\n";
    }
  return o.str();
}

}  // namespace tetlab::test
