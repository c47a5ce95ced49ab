# ruff: noqa: E501
"""Starting contents of the files the session reads (a C++17 CMake project, written for the heldout3 split)."""

CMAKELISTS = '''cmake_minimum_required(VERSION 3.22)
project(logrollup LANGUAGES CXX)

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
add_compile_options(-Wall -Wextra -Werror)

add_library(rollup STATIC src/parse.cpp src/stats.cpp src/report.cpp)
target_include_directories(rollup PUBLIC src)

add_executable(logrollup src/main.cpp)
target_link_libraries(logrollup PRIVATE rollup)

enable_testing()
find_package(GTest REQUIRED)
foreach(t parse stats report)
  add_executable(${t}_test tests/${t}_test.cpp)
  target_link_libraries(${t}_test PRIVATE rollup GTest::gtest_main)
  add_test(NAME ${t} COMMAND ${t}_test)
endforeach()
'''

STATS_HPP = '''#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace rollup {

// Latencies per endpoint, in milliseconds. Percentiles are exact: every value is kept.
class EndpointStats {
 public:
  void add(double ms) { values_.push_back(ms); }
  std::uint64_t count() const { return values_.size(); }
  double quantile(double q);  // sorts on first call

 private:
  std::vector<double> values_;
  bool sorted_ = false;
};

using StatsByEndpoint = std::unordered_map<std::string, EndpointStats>;

}  // namespace rollup
'''

STATS_CPP = '''#include "stats.hpp"

#include <algorithm>
#include <cmath>

namespace rollup {

double EndpointStats::quantile(double q) {
  if (values_.empty()) return 0.0;
  if (!sorted_) {
    std::sort(values_.begin(), values_.end());
    sorted_ = true;
  }
  // nearest-rank
  auto rank = static_cast<std::size_t>(std::ceil(q * values_.size()));
  return values_[rank == 0 ? 0 : rank - 1];
}

}  // namespace rollup
'''

STATS_TEST = '''#include "stats.hpp"

#include <gtest/gtest.h>

TEST(EndpointStats, NearestRank) {
  rollup::EndpointStats s;
  for (int i = 1; i <= 100; ++i) s.add(i);
  EXPECT_EQ(s.quantile(0.5), 50);
  EXPECT_EQ(s.quantile(0.99), 99);
}

TEST(EndpointStats, EmptyIsZero) {
  rollup::EndpointStats s;
  EXPECT_EQ(s.quantile(0.5), 0);
}
'''
