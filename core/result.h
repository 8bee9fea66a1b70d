#pragma once
// Fallible setup (load, tetrahedralize, build program, parse scene) returns a
// Result: either the value or a human-readable Error saying what failed, where
// (file, line, element) and what to do. The step loop never uses this.
#include <string>
#include <utility>
#include <variant>

namespace tetlab {

struct Error {
  std::string message;
};

template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const { return std::get<Error>(v_); }

 private:
  std::variant<T, Error> v_;
};

// For fallible operations with no value.
struct Ok {};
using Status = Result<Ok>;

}  // namespace tetlab
