#pragma once
// Graph colourings for parallel (and Gauss-Seidel-ordered) solves: items of one
// colour can be processed at the same time because they never touch the same
// vertex (elements) or the same tet (vertices).
//
// Greedy colouring in largest-degree-first order (Welsh-Powell), then a
// balancing pass that moves items from large colours to the smallest colour
// their neighbours leave free, without adding colours: equal-sized colours mean
// equal-sized kernel launches. Reported against bounds that need no search:
//   lowerBound:  size of a known clique (all elements around one vertex; the 4
//                vertices of a tet), so no colouring can use fewer colours;
//   greedyBound: maximum degree + 1, which first-fit greedy never exceeds.
#include <cstdint>
#include <span>
#include <vector>

#include "core/model/sim_model.h"

namespace tetlab {

struct Coloring {
  std::vector<uint32_t> color;  // per item
  uint32_t colorCount = 0;
  uint32_t lowerBound = 0;
  uint32_t greedyBound = 0;
  uint32_t smallestColor = 0;   // items in the smallest colour
  uint32_t largestColor = 0;    // items in the largest colour
};

// Colour items that each touch `arity` vertices (tets: 4, edges: 2); two items
// conflict when they share a vertex. itemVertices holds arity ids per item;
// vertexItems is the CSR vertex -> item * arity + corner over the same items.
Coloring colorItemsSharingVertices(std::span<const uint32_t> itemVertices, uint32_t arity, const Csr& vertexItems);

// Colour the vertices of a graph given as CSR adjacency (neighbours per vertex,
// symmetric, no self loops). cliqueLowerBound: a clique size known to the
// caller (4 for a tet mesh).
Coloring colorGraph(const Csr& adjacency, uint32_t cliqueLowerBound);

// Stable permutation that sorts items by colour, and the resulting ranges.
std::vector<uint32_t> colorSortPermutation(const Coloring& coloring, ColorRanges& outRanges);

}  // namespace tetlab
