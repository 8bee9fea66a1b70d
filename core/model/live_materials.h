#pragma once
// The per-body materials: the one part of a built SimModel that the user
// edits while it runs (the Materials panel, scene overrides). Every write goes
// through add() or set(), which move revision() on; whatever is derived from
// the materials (packed body constants, compliances, device copies) keeps a
// MaterialsStamp of the revision it was derived from and compares that one
// number, instead of each reader comparing materials field by field.
//
// A density edit also changes SimModel::mass (recomputeLumpedMass); the same
// set() that changed the density moved the revision, so a stamp covers it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "core/model/material.h"

namespace tetlab {

class LiveMaterials {
 public:
  LiveMaterials() = default;
  LiveMaterials(std::initializer_list<Material> perBody) : perBody_(perBody), revision_(1) {}
  // A copy or an assignment is a new revision too, so a stamp taken of the
  // object that was there before (same address) is never taken as current.
  LiveMaterials(const LiveMaterials& o) : perBody_(o.perBody_), revision_(o.revision_ + 1) {}
  LiveMaterials(LiveMaterials&& o) noexcept : perBody_(std::move(o.perBody_)), revision_(o.revision_ + 1) {}
  LiveMaterials& operator=(const LiveMaterials& o) {
    perBody_ = o.perBody_;
    revision_ = std::max(revision_, o.revision_) + 1;
    return *this;
  }
  LiveMaterials& operator=(LiveMaterials&& o) noexcept {
    perBody_ = std::move(o.perBody_);
    revision_ = std::max(revision_, o.revision_) + 1;
    return *this;
  }
  ~LiveMaterials() = default;

  size_t size() const { return perBody_.size(); }
  bool empty() const { return perBody_.empty(); }
  const Material& operator[](size_t body) const { return perBody_[body]; }
  const Material& at(size_t body) const { return perBody_.at(body); }
  std::vector<Material>::const_iterator begin() const { return perBody_.begin(); }
  std::vector<Material>::const_iterator end() const { return perBody_.end(); }

  void add(const Material& material) {
    perBody_.push_back(material);
    ++revision_;
  }
  // Replaces body `body`'s material (body < size()).
  void set(size_t body, const Material& material) {
    perBody_.at(body) = material;
    ++revision_;
  }
  uint64_t revision() const { return revision_; }

 private:
  std::vector<Material> perBody_;
  uint64_t revision_ = 0;
};

// Which materials a derived copy was made from: the LiveMaterials object (so a
// copy made for another model is never taken as current) and its revision.
class MaterialsStamp {
 public:
  bool current(const LiveMaterials& materials) const {
    return source_ == &materials && revision_ == materials.revision();
  }
  void take(const LiveMaterials& materials) {
    source_ = &materials;
    revision_ = materials.revision();
  }
  void clear() { source_ = nullptr; }

 private:
  const LiveMaterials* source_ = nullptr;
  uint64_t revision_ = 0;
};

}  // namespace tetlab
