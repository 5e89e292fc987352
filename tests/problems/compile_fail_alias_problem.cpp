// Must not compile: a problem registered through an alias template (of a two-parameter class template) cannot be
// rebound to long double and float128; register_problem says so in a sentence, as the first and only error of
// its own (tests/CMakeLists.txt expects the sentence).
#include "study/extend/problem.hpp"
#include "study/problems/harmonic.hpp"

template <class Real, bool Flag>
class Twice : public study::Harmonic<Real> {
  using study::Harmonic<Real>::Harmonic;
};
template <class Real>
using Once = Twice<Real, true>;

void register_it() { study::register_problem<Once>(); }
