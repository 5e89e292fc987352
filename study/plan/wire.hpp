#pragma once
/// The bytes a rank sends another (study/ranks/): a spec's context (its reference table and the problem's facts in its
/// result), and what one task wrote into its result slots.  Every number travels as its own bits (NaN, infinities, -0,
/// long double and float128 included), so that the slots a message fills hold what the task wrote where it ran: the
/// results do not depend on which rank ran what.  The encoding is CBOR (nlohmann::json), between processes of one build.

#include <string>
#include <string_view>

#include "study/plan/context.hpp"
#include "study/plan/plan.hpp"
#include "study/results/results.hpp"

namespace study::engine {

/// A spec's context and the facts make_context recorded in its result (the problem's, the scales, the bound); not
/// where the caches are, which is each rank's own (--cache-dir, $STUDY_CACHE_DIR: a node's own folder, or a shared one).
std::string pack_context(const Context& ctx, const StudyResult& res);
/// Reads pack_context's bytes into ctx and res's facts; ctx keeps its cache folders (cache_folders).  Throws
/// std::runtime_error on bytes it cannot read.
void unpack_context(std::string_view bytes, Context& ctx, StudyResult& res);

/// What task t wrote into res: its runs (an automatic sweep's or a range's: every slot of its ladder) and its sweep,
/// or its long energy run, or its stability search.
std::string pack_task(const Task& t, const Spec& spec, const StudyResult& res);
/// Writes pack_task's bytes into res's slots of task t.  Throws std::runtime_error on bytes that do not fit them.
void unpack_task(std::string_view bytes, const Task& t, const Spec& spec, StudyResult& res);

}  // namespace study::engine
