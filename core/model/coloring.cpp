// Largest-degree-first greedy colouring plus a size-balancing pass; see
// coloring.h for why. Neighbour sets are never materialised: an item's
// neighbours are enumerated through its vertices' CSR rows, and a per-colour
// stamp array (stamp = current item) marks forbidden colours, so each pass is
// O(sum of neighbourhood sizes) with no allocation per item.
#include "core/model/coloring.h"

#include <algorithm>
#include <numeric>

namespace tetlab {
namespace {

// forEachNeighbour(item, f) calls f(neighbourItem) (duplicates allowed, may
// include item itself, which is skipped).
template <class ForEachNeighbour>
void greedyColor(uint32_t itemCount, const std::vector<uint32_t>& degree, ForEachNeighbour&& forEachNeighbour,
                 Coloring& out) {
  constexpr uint32_t kUncolored = ~0u;
  std::vector<uint32_t> order(itemCount);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return degree[a] > degree[b]; });

  out.color.assign(itemCount, kUncolored);
  std::vector<uint32_t> stamp;  // stamp[c] == item + 1: colour c is used by a neighbour of item
  uint32_t colorCount = 0;
  for (uint32_t item : order) {
    forEachNeighbour(item, [&](uint32_t n) {
      const uint32_t c = out.color[n];
      if (n != item && c != kUncolored) stamp[c] = item + 1;
    });
    uint32_t c = 0;
    while (c < colorCount && stamp[c] == item + 1) ++c;
    if (c == colorCount) {
      ++colorCount;
      stamp.push_back(0);
    }
    out.color[item] = c;
  }

  // Balancing: move an item to the smallest colour its neighbours leave free
  // when that makes the two colours' sizes closer. Never adds a colour.
  std::vector<uint32_t> size(colorCount, 0);
  for (uint32_t c : out.color) ++size[c];
  std::fill(stamp.begin(), stamp.end(), 0u);
  for (int pass = 0; pass < 2; ++pass) {
    for (uint32_t item : order) {
      const uint32_t mark = pass * itemCount + item + 1;
      forEachNeighbour(item, [&](uint32_t n) {
        if (n != item) stamp[out.color[n]] = mark;
      });
      const uint32_t current = out.color[item];
      uint32_t best = current;
      for (uint32_t c = 0; c < colorCount; ++c)
        if (stamp[c] != mark && size[c] < size[best]) best = c;
      if (best != current && size[best] + 1 < size[current]) {
        --size[current];
        ++size[best];
        out.color[item] = best;
      }
    }
  }
  out.colorCount = colorCount;
  out.smallestColor = colorCount ? *std::min_element(size.begin(), size.end()) : 0;
  out.largestColor = colorCount ? *std::max_element(size.begin(), size.end()) : 0;
}

}  // namespace

Coloring colorItemsSharingVertices(std::span<const uint32_t> itemVertices, uint32_t arity, const Csr& vertexItems) {
  Coloring out;
  const uint32_t itemCount = uint32_t(itemVertices.size() / arity);
  // Degree upper estimate: sum over the item's vertices of the items there.
  std::vector<uint32_t> degree(itemCount, 0);
  uint32_t maxStar = 0;
  for (uint32_t v = 0; v + 1 < vertexItems.offsets.size(); ++v)
    maxStar = std::max(maxStar, vertexItems.offsets[v + 1] - vertexItems.offsets[v]);
  for (uint32_t i = 0; i < itemCount; ++i)
    for (uint32_t a = 0; a < arity; ++a) {
      const uint32_t v = itemVertices[i * arity + a];
      degree[i] += vertexItems.offsets[v + 1] - vertexItems.offsets[v] - 1;
    }
  auto forEachNeighbour = [&](uint32_t item, auto&& f) {
    for (uint32_t a = 0; a < arity; ++a) {
      const uint32_t v = itemVertices[item * arity + a];
      for (uint32_t k = vertexItems.offsets[v]; k < vertexItems.offsets[v + 1]; ++k) f(vertexItems.items[k] / arity);
    }
  };
  greedyColor(itemCount, degree, forEachNeighbour, out);
  // All items around one vertex pairwise conflict: a clique.
  out.lowerBound = maxStar;
  // Exact max degree (distinct neighbours) for the greedy bound.
  std::vector<uint32_t> seen(itemCount, ~0u);
  uint32_t maxDegree = 0;
  for (uint32_t i = 0; i < itemCount; ++i) {
    uint32_t d = 0;
    forEachNeighbour(i, [&](uint32_t n) {
      if (n != i && seen[n] != i) {
        seen[n] = i;
        ++d;
      }
    });
    maxDegree = std::max(maxDegree, d);
  }
  out.greedyBound = itemCount ? maxDegree + 1 : 0;
  return out;
}

Coloring colorGraph(const Csr& adjacency, uint32_t cliqueLowerBound) {
  Coloring out;
  const uint32_t n = adjacency.offsets.empty() ? 0u : uint32_t(adjacency.offsets.size() - 1);
  std::vector<uint32_t> degree(n);
  uint32_t maxDegree = 0;
  for (uint32_t v = 0; v < n; ++v) {
    degree[v] = adjacency.offsets[v + 1] - adjacency.offsets[v];
    maxDegree = std::max(maxDegree, degree[v]);
  }
  auto forEachNeighbour = [&](uint32_t v, auto&& f) {
    for (uint32_t k = adjacency.offsets[v]; k < adjacency.offsets[v + 1]; ++k) f(adjacency.items[k]);
  };
  greedyColor(n, degree, forEachNeighbour, out);
  out.lowerBound = n ? std::min(cliqueLowerBound, maxDegree + 1) : 0;
  out.greedyBound = n ? maxDegree + 1 : 0;
  return out;
}

std::vector<uint32_t> colorSortPermutation(const Coloring& coloring, ColorRanges& outRanges) {
  const uint32_t n = uint32_t(coloring.color.size());
  outRanges.offsets.assign(coloring.colorCount + 1, 0);
  for (uint32_t c : coloring.color) ++outRanges.offsets[c + 1];
  for (uint32_t c = 0; c < coloring.colorCount; ++c) outRanges.offsets[c + 1] += outRanges.offsets[c];
  std::vector<uint32_t> next(outRanges.offsets.begin(), outRanges.offsets.end() - 1);
  std::vector<uint32_t> perm(n);  // perm[newIndex] = oldIndex
  for (uint32_t i = 0; i < n; ++i) perm[next[coloring.color[i]]++] = i;
  return perm;
}

}  // namespace tetlab
