#pragma once
// One column of a `tetlab run --stats` CSV, for the tests that run the CLI.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tetlab::test {

// Column `name` of every row (a test failure when the header lacks it).
inline std::vector<double> csvColumn(const std::filesystem::path& csv, const std::string& name) {
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  int index = -1, i = 0;
  std::stringstream header(line);
  for (std::string cell; std::getline(header, cell, ','); ++i)
    if (cell == name) index = i;
  EXPECT_GE(index, 0) << name << " missing from " << line;
  std::vector<double> out;
  while (index >= 0 && std::getline(in, line)) {
    std::stringstream ss(line);
    std::string cell;
    for (int k = 0; k <= index && std::getline(ss, cell, ','); ++k) {}
    out.push_back(std::strtod(cell.c_str(), nullptr));
  }
  return out;
}

}  // namespace tetlab::test
