#pragma once
/// sin and cos for the problems' forces and energies, in every precision the harness runs them.
///
/// long double: glibc's sinl and cosl (x87, 64-bit significand) reduce every argument beyond pi/4 with the
/// multi-word Payne-Hanek method (__kernel_rem_pio2), several times the cost of the polynomial itself: the
/// pendulum's round-off shadows spent three quarters of the default study's pendulum time there (perf, 2026-11).
/// Up to |x| = 2^19 pi/2 the argument is reduced here instead by Cody and Waite's method, pi/2 in three parts
/// (44, 44 and 64 bits, so k P1 and k P2 are exact for |k| < 2^20, and pi/2 - P1 - P2 - P3 = 1.2e-47), and the
/// remainder, |r| <= pi/4, goes to Taylor polynomials.  The parts are pi/2 cut from its
/// decimal expansion (Cody and Waite, Software Manual for the Elementary Functions, 1980, ch. 8; Muller,
/// Elementary Functions, 3rd ed., §11.2).  Other types (double, float128) use their own sin and cos.

#include <cmath>

namespace study {

namespace trig_detail {
inline constexpr long double two_over_pi = 0xa2f9836e4e44152ap-64L;
inline constexpr long double pio2_1 = 0xc90fdaa221600000p-63L;  // the first 44 bits of pi/2
inline constexpr long double pio2_2 = 0x8c234c4c66200000p-107L;  // the next 44
inline constexpr long double pio2_3 = 0x8b80dc1cd129024ep-151L;  // the next 64, rounded
inline constexpr long double reduce_below = 0x1p19L * 1.5707963267948966L;

// sin and cos on |r| <= pi/4 (a hair more): their Taylor series to r^21 and r^22, the next terms below 2e-25
// and 5e-27 there (1e-6 of an ulp), summed by Horner with the leading terms last (fdlibm's way for cos: 1 - r^2/2
// rounded, its rounding error added back).  glibc's kernels split r at table points and took 60 ns.
inline constexpr long double sin_c[] = {-0xaaaaaaaaaaaaaaabp-66L, 0x8888888888888889p-70L, -0xd00d00d00d00d00dp-76L,
                                        0xb8ef1d2ab6399c7dp-82L,  -0xd7322b3faa271c7fp-89L, 0xb092309d43684be5p-96L,
                                        -0xd73f9f399dc0f88fp-104L, 0xca963b81856a5359p-112L, -0x97a4da340a0ab926p-120L,
                                        0xb8dc77b6e7ab8c5fp-129L};  // (-1)^n / (2n+1)!, n = 1..10
inline constexpr long double cos_c[] = {0xaaaaaaaaaaaaaaabp-68L,  -0xb60b60b60b60b60bp-73L, 0xd00d00d00d00d00dp-79L,
                                        -0x93f27dbbc4fae397p-85L, 0x8f76c77fc6c4bdaap-92L,  -0xc9cba54603e4e906p-100L,
                                        0xd73f9f399dc0f88fp-108L, -0xb413c31dcbecbbdep-116L, 0xf2a15d201011283dp-125L,
                                        -0x8671cb6dbfc294a3p-133L};  // (-1)^n / (2n)!, n = 2..11
inline long double sin_kernel(long double r) {
  const long double z = r * r;
  long double p = sin_c[9];
  for (int i = 8; i >= 0; --i) p = p * z + sin_c[i];
  return r + r * z * p;
}
inline long double cos_kernel(long double r) {
  const long double z = r * r, h = z / 2, w = 1 - h;
  long double p = cos_c[9];
  for (int i = 8; i >= 0; --i) p = p * z + cos_c[i];
  return w + (((1 - w) - h) + z * z * p);
}

/// x = k pi/2 + r with |r| <= pi/4 (a hair more from rounding x 2/pi); the quadrant k mod 4.
inline long double reduce(long double x, unsigned& quadrant) {
  // Rounded to the nearest integer by adding and taking away 1.5 x 2^63 (64-bit significand): nearbyintl saves and
  // restores the x87 environment, and took more time than the reduction it saves.
  constexpr long double shift = 0x1.8p63L;
  const long double k = (x * two_over_pi + shift) - shift;
  quadrant = static_cast<unsigned>(static_cast<long long>(k) & 3);
  return ((x - k * pio2_1) - k * pio2_2) - k * pio2_3;
}
}  // namespace trig_detail

template <class Real>
Real sin_of(const Real& x) {
  using std::sin;
  return sin(x);
}
template <class Real>
Real cos_of(const Real& x) {
  using std::cos;
  return cos(x);
}

inline long double sin_of(const long double& x) {
  if (!(std::fabs(x) < trig_detail::reduce_below)) return std::sin(x);  // large, inf, NaN: glibc's own
  unsigned q = 0;
  const long double r = trig_detail::reduce(x, q);
  switch (q) {
    case 0: return trig_detail::sin_kernel(r);
    case 1: return trig_detail::cos_kernel(r);
    case 2: return -trig_detail::sin_kernel(r);
    default: return -trig_detail::cos_kernel(r);
  }
}

inline long double cos_of(const long double& x) {
  if (!(std::fabs(x) < trig_detail::reduce_below)) return std::cos(x);
  unsigned q = 0;
  const long double r = trig_detail::reduce(x, q);
  switch (q) {
    case 0: return trig_detail::cos_kernel(r);
    case 1: return -trig_detail::sin_kernel(r);
    case 2: return -trig_detail::cos_kernel(r);
    default: return trig_detail::sin_kernel(r);
  }
}

}  // namespace study
