// An enum's names as one table next to the enum's to_string, instead of a switch per enum:
//   const char* to_string(Mode m) {
//     static constexpr EnumName<Mode> names[] = {{Mode::Cold, "cold"}, {Mode::Hot, "hot"}};
//     return enum_name(m, names);
//   }
#pragma once

#include <cstddef>

namespace joseki::measure {

template <class E>
struct EnumName {
  E value;
  const char* name;
};

// The name of `e` in `names`, or "?" for a value the table lacks.
template <class E, std::size_t N>
constexpr const char* enum_name(E e, const EnumName<E> (&names)[N]) {
  for (const EnumName<E>& n : names)
    if (n.value == e) return n.name;
  return "?";
}

}  // namespace joseki::measure
