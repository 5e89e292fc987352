// The integrators this program adds to `study` (study/extend/integrator.hpp: light, so an edit to
// game_verlet.hpp rebuilds in seconds).
#include "study/extend/integrator.hpp"

#include "game_verlet.hpp"

void register_game_integrators() {
  study::register_integrator<game::GameVerlet>();
  study::register_integrator<game::GameVerletBroken>();
}
