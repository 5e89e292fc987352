// The ranks of an MPI launch as the engine's Spread: rank 0 hands items out as threads free up and gathers their
// bytes; a rank that fails, is stopped or dies makes the run fail, naming it and what it ran.
#include "study/ranks/ranks.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string_view>

#include <fmt/core.h>

#include "reference/reference.hpp"
#include "study/common/atomic_file.hpp"
#include "study/spec/spec.hpp"

#ifdef STUDY_WITH_MPI
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <queue>
#include <thread>

#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include "study/common/interrupt.hpp"
#endif

namespace study::ranks {

long launched_processes() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"}) {
    const char* v = std::getenv(name);
    char* end = nullptr;
    const long n = v ? std::strtol(v, &end, 10) : 0;
    if (v && end != v && *end == '\0' && n > 1) return n;
  }
  if (std::getenv("SLURM_STEP_ID"))  // inside srun
    if (const char* v = std::getenv("SLURM_STEP_NUM_TASKS"); v && std::atol(v) > 1) return std::atol(v);
  return 1;
}

bool launcher_present() {
  // OpenMPI's and Slurm's PMIx server, or a PMI-1/2 launcher's socket (MPICH's Hydra, srun --mpi=pmi2): what MPI_Init
  // would connect to.  Rank variables without it were set by hand.
  for (char** e = environ; e && *e; ++e)
    if (std::string_view(*e).starts_with("PMIX_SERVER_URI")) return true;  // PMIX_SERVER_URI2, 21, 3, 4, 41 ...
  for (const char* name : {"PMI_FD", "PMI_PORT", "OMPI_MCA_orte_hnp_uri"})
    if (const char* v = std::getenv(name); v && *v) return true;
  return false;
}

long launched_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (const char* v = std::getenv(name)) return std::atol(v);
  if (std::getenv("SLURM_STEP_ID"))
    if (const char* v = std::getenv("SLURM_PROCID")) return std::atol(v);
  return 0;
}

std::string error_kind(const std::exception& e) {
  if (dynamic_cast<const SpecError*>(&e)) return "spec";
  if (dynamic_cast<const reference::ReferenceError*>(&e)) return "reference";
  if (dynamic_cast<const WriteError*>(&e)) return "write";
  if (dynamic_cast<const RankFailure*>(&e)) return "rank";
  return "other";
}

int error_status(const std::string& kind) { return kind == "reference" || kind == "write" || kind == "rank" ? 1 : 2; }

std::string busy_summary(const WorkLog& log) {
  double wall = 0;
  for (double w : log.walls) wall += w;
  std::map<int, std::pair<double, std::size_t>> busy;  // rank -> seconds, items
  for (const auto& item : log.items) busy[item.rank].first += item.seconds, ++busy[item.rank].second;
  std::string text;
  std::map<std::string, std::pair<int, int>> hosts;  // host -> threads of its ranks, its cores
  for (const auto& rank : log.ranks) hosts[rank.host].first += rank.threads, hosts[rank.host].second = rank.cores;
  for (std::size_t r = 0; r < log.ranks.size(); ++r) {
    const auto [seconds, items] = busy[static_cast<int>(r)];
    const double capacity = wall * log.ranks[r].threads, idle = std::max(0.0, capacity - seconds);
    text += fmt::format("rank {} ({}, {} thread{}): busy {:.1f} s, idle {:.1f} s ({:.0f} %), {} item{}\n", r, log.ranks[r].host,
                        log.ranks[r].threads, log.ranks[r].threads == 1 ? "" : "s", seconds, idle,
                        capacity > 0 ? 100 * idle / capacity : 0.0, items, items == 1 ? "" : "s");
  }
  for (const auto& [host, use] : hosts)
    if (use.second > 0 && use.first > use.second)
      text += fmt::format("note: {} ran {} threads on {} cores: busy time there includes waiting for a core\n", host, use.first, use.second);
  return text;
}

#ifndef STUDY_WITH_MPI

bool built_with_mpi() { return false; }

std::shared_ptr<Ranks> start() {
  // Started as one of several processes: without MPI each would run the whole study into the same folder.
  if (const long n = launched_processes(); n > 1)
    throw SpecError(fmt::format(
        "started as one of {} processes (mpirun, srun), but this study is built without MPI: each process would run the "
        "whole study. Run it as one process with threads (study run --jobs N), or build with MPI (install "
        "libopenmpi-dev and libboost-mpi-dev, then configure again: README, \"Many machines\")",
        n));
  return nullptr;
}

#else

bool built_with_mpi() { return true; }

namespace {

namespace mpi = boost::mpi;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using Bytes = std::vector<std::uint8_t>;

/// Message tags.
enum Tag : int { t_hello = 1, t_verdict, t_request, t_items, t_result, t_error, t_stop, t_stopped, t_bye, t_alive };

/// How long the leader waits, once stopped, for each rank to say it is alive (mpirun and srun signal every rank at
/// once, and a rank's main thread answers within milliseconds): a rank silent after this is lost.
constexpr auto answer_within = std::chrono::milliseconds(300);
/// What the leader adds to a lost or stopped rank's message.
constexpr const char* resume_hint =
    ". The results were not written; the finished runs and references are in the caches: the same command again "
    "resumes from them";
/// How long a rank that stopped waits for the leader's goodbye, the leader having stopped its items and said why.
constexpr auto linger_at_most = std::chrono::seconds(30);
/// A rank holding items says it is alive this often, and the leader gives up on one silent for `silent_at_most`
/// (a launcher that does not stop the job when a rank dies: srun without --kill-on-bad-exit).
constexpr auto heartbeat = std::chrono::seconds(1);
/// 60 s, or $STUDY_RANK_SILENCE seconds (a slow network; the tests' 3).
std::chrono::seconds silent_at_most() {
  static const std::chrono::seconds s = [] {
    const char* v = std::getenv("STUDY_RANK_SILENCE");
    char* end = nullptr;
    const long n = v ? std::strtol(v, &end, 10) : 0;
    return std::chrono::seconds(v && end != v && *end == '\0' && n >= 2 && n <= 86400 ? n : 60);
  }();
  return s;
}
/// How long a wait sleeps between two looks at the messages: MPI's own blocking calls would spin a core.
constexpr auto poll = std::chrono::milliseconds(1);

int cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "?";
  return name;
}

json cbor(const Bytes& b) { return json::from_cbor(b); }
Bytes cbor(const json& j) { return json::to_cbor(j); }
json binary(std::string_view s) { return json::binary(Bytes(s.begin(), s.end())); }
std::string_view view(const json& j) {
  const auto& b = j.get_binary();
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

struct Message {
  int from, tag;
  Bytes bytes;
};

/// What each rank holds: rank -> item -> what it is (a lost rank's message names them).
using Holding = std::map<int, std::map<std::size_t, std::string>>;

class MpiRanks final : public Ranks {
 public:
  MpiRanks() : env_(std::make_unique<mpi::environment>(mpi::threading::funneled, false)) {
    if (env_->thread_level() < mpi::threading::funneled)
      throw SpecError("this MPI library cannot run threads beside its calls (MPI_THREAD_FUNNELED)");
    members_.assign(static_cast<std::size_t>(size()), {host_name(), 1, cores()});
    pids_.assign(static_cast<std::size_t>(size()), 0);
    // The ranks on this node: a call every rank makes together, so here, where all of them are.
    MPI_Comm local;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) == MPI_SUCCESS) {
      MPI_Comm_size(local, &on_node_);
      MPI_Comm_free(&local);
    }
  }
  ~MpiRanks() override {
    failed_ = failed_ || !closed_;
    trace(failed_ ? "ending after a failure" : "ending");
    if (leader() && !closed_) release();  // the leader failed before the work was done: every rank is told
    if (leader() && failed_)  // it has said why (its owner let go after the message): the other ranks may leave now
      for (int r = 1; r < size(); ++r) try {
          send(r, t_bye, {});
        } catch (const std::exception&) {
        }
    if (!leader() && failed_) linger();
    flush();
    // MPI_Finalize waits for every rank: after a failure one may be lost, and the launcher would kill this rank
    // before it says why.  The launcher cleans up after a rank that ends without it.
    if (failed_) static_cast<void>(env_.release());
  }

  int rank() const override { return world_.rank(); }
  int size() const override { return world_.size(); }
  void threads(int n) override { members_[static_cast<std::size_t>(rank())].threads = n; }
  std::vector<WorkLog::Rank> members() const override { return members_; }

  void agree(const std::string& plan, const std::string& machine) override {
    const auto& me = members_[static_cast<std::size_t>(rank())];
    if (!leader()) {
      send(0, t_hello, cbor(json{{"plan", plan}, {"machine", machine}, {"host", me.host}, {"pid", static_cast<long>(::getpid())},
                                 {"threads", me.threads}, {"cores", me.cores}}));
      wait_for(t_verdict);
      return;
    }
    pids_[0] = static_cast<long>(::getpid());
    std::set<int> waiting;
    for (int r = 1; r < size(); ++r) waiting.insert(r);
    std::string problem;
    while (!waiting.empty()) {
      const Message msg = receive({t_hello}, {});
      const json j = cbor(msg.bytes);
      const int from = msg.from;
      members_[from] = {j.at("host"), j.at("threads"), j.at("cores")}, pids_[from] = j.at("pid");
      if (problem.empty() && j.at("plan") != plan)
        problem = fmt::format("rank {} ({}) planned other work than rank 0 ({}): its specs, method tables or options differ; give every "
                              "rank the same command and the same files",
                              from, members_[from].host, members_[0].host);
      else if (problem.empty() && j.at("machine") != machine)
        problem = fmt::format("rank {} ({}) runs another build or kind of machine than rank 0 ({}), and its results would not be the "
                              "same bytes (rank {}: {}; rank 0: {}); run one build on one kind of node",
                              from, members_[from].host, members_[0].host, from, one_line(j.at("machine")), one_line(machine));
      waiting.erase(from);
    }
    if (!problem.empty()) throw SpecError(problem);  // the destructor releases every rank
    for (int r = 1; r < size(); ++r) send(r, t_verdict, {});
  }

  void run(const Phase& phase, int jobs) override { leader() ? lead(phase, jobs) : follow(phase, jobs); }

  void fail(const std::string& kind, const std::string& message) override {
    if (leader()) return;
    try {
      send(0, t_error, cbor(json{{"kind", kind}, {"message", message}, {"item", ""}}));
    } catch (const std::exception&) {
    }
  }

  int default_threads() const override {
    // The cores this rank may run on (a launcher that binds ranks to cores says so in its affinity), shared with
    // the other ranks on this node when it does not bind them.
    cpu_set_t set;
    CPU_ZERO(&set);
    const int mine = ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return std::max(1, std::min(mine, cores / std::max(1, on_node_)));
  }

  void finish() override {
    if (leader()) closed_ = true;
  }

 private:
  std::unique_ptr<mpi::environment> env_;
  mpi::communicator world_;
  bool closed_ = false;
  bool failed_ = false;  // the run failed or was stopped here
  std::set<int> stopped_;  // the ranks that said they were stopped by a signal
  std::set<int> finished_;  // the ranks told the work is over: they end without another word
  int on_node_ = 1;  // ranks on this node
  std::vector<WorkLog::Rank> members_;
  std::vector<long> pids_;
  std::vector<std::pair<mpi::request, std::shared_ptr<Bytes>>> pending_;  // sends not yet complete

  static std::string one_line(std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s;
  }
  std::string host(int r) const { return members_[static_cast<std::size_t>(r)].host; }

  /// With $STUDY_RANKS_TRACE set, every message and stop on stderr, timed: what to read when a launch hangs.
  void trace(const std::string& what) const {
    static const bool on = std::getenv("STUDY_RANKS_TRACE") != nullptr;
    if (on)
      std::fprintf(stderr, "[rank %d %.3f] %s\n", world_.rank(),
                   std::chrono::duration<double>(Clock::now().time_since_epoch()).count(), what.c_str());
  }

  /// Sends without waiting for the receiver: two ranks sending each other a message too large to be buffered
  /// would each wait for the other to receive.  The bytes are kept until the send completes (sent()).
  void send(int to, int tag, Bytes bytes) {
    trace(fmt::format("send tag {} to {} ({} bytes)", tag, to, bytes.size()));
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw RankFailure(fmt::format("a message of {} bytes to rank {}: more than MPI sends at once", bytes.size(), to));
    auto kept = std::make_shared<Bytes>(std::move(bytes));
    pending_.emplace_back(world_.isend(to, tag, reinterpret_cast<const char*>(kept->data()), static_cast<int>(kept->size())), kept);
    sent();
  }
  /// Lets go of the bytes of the sends that have completed.
  void sent() {
    std::erase_if(pending_, [](auto& p) { return static_cast<bool>(p.first.test()); });
  }
  /// Waits (a while at most: a lost receiver never receives) for every send to complete: before MPI ends.  After a
  /// failure only briefly: the launcher kills what is left soon after a rank fails, and the leader has yet to say why.
  void flush() {
    const auto until = Clock::now() + (failed_ ? std::chrono::milliseconds(100) : std::chrono::milliseconds(10000));
    while (!pending_.empty() && Clock::now() < until) {
      sent();
      std::this_thread::sleep_for(poll);
    }
    for (auto& p : pending_) p.first.cancel();
    pending_.clear();
  }

  /// The next message of one of `tags`, if one has come.
  std::optional<Message> next(std::initializer_list<int> tags) {
    sent();
    for (int tag : tags)
      if (const auto st = world_.iprobe(mpi::any_source, tag)) {
        const int n = st->count<char>().value_or(0);
        Message msg{st->source(), tag, Bytes(static_cast<std::size_t>(n))};
        world_.recv(st->source(), tag, reinterpret_cast<char*>(msg.bytes.data()), n);
        trace(fmt::format("recv tag {} from {} ({} bytes)", tag, st->source(), n));
        return msg;
      }
    return std::nullopt;
  }

  /// On the leader: the next message of `tags`, waiting; a signal, a rank's error or a stopped rank fails the wait.
  Message receive(std::initializer_list<int> tags, const Holding& holding) {
    while (true) {
      if (interrupted()) stop_all(holding);
      if (auto m = next({t_error})) raise(*m);
      if (auto m = next({t_stopped})) lost_or_stopped(m->from, holding, interrupted());
      if (auto m = next(tags)) return std::move(*m);
      std::this_thread::sleep_for(poll);
    }
  }

  /// On another rank: the leader's next message of `tag`, waiting; Released when the leader stops the run.
  Bytes wait_for(int tag) {
    while (true) {
      if (interrupted()) {
        say_stopped();
        throw Interrupted();
      }
      if (next({t_stop})) released();
      if (auto m = next({tag})) return std::move(m->bytes);
      std::this_thread::sleep_for(poll);
    }
  }

  /// A rank other than the leader that stopped or failed waits for the leader's goodbye before it ends (at most
  /// `linger_at_most`: the leader may be lost too): when a rank ends while the launcher is stopping the job, the
  /// launcher kills the others at once, and the leader would not say why.
  void linger() {
    const auto until = Clock::now() + linger_at_most;
    while (Clock::now() < until) {
      try {
        if (next({t_bye})) return;
        next({t_stop, t_items, t_verdict});  // moot now
      } catch (const std::exception&) {
        return;
      }
      std::this_thread::sleep_for(poll);
    }
  }

  void say_stopped() {
    failed_ = true;
    try {
      send(0, t_stopped, {});
    } catch (const std::exception&) {
    }
  }
  /// The leader stopped the run: this rank says it has stopped too, and leaves quietly (the leader says why).
  [[noreturn]] void released() {
    failed_ = true;
    interrupt_flag = true;  // this rank's running items stop at their next poll
    say_stopped();
    throw Released();
  }

  /// Tells every rank but `except` to stop, and waits a moment for each to say it has: the silent ones.
  std::set<int> release(int except = 0) {
    closed_ = failed_ = true;
    std::set<int> silent;
    for (int r = 1; r < size(); ++r)
      if (r != except && !stopped_.count(r) && !finished_.count(r)) {
        silent.insert(r);
        try {
          send(r, t_stop, {});
        } catch (const std::exception&) {  // a lost rank: the others are still told
        }
      }
    const auto until = Clock::now() + answer_within;
    trace("waiting for answers");
    while (!silent.empty() && Clock::now() < until) {
      try {
        if (auto m = next({t_stopped, t_error, t_request, t_result, t_hello, t_alive})) silent.erase(m->from);  // alive; what it says is moot now
        else std::this_thread::sleep_for(poll);
      } catch (const std::exception&) {  // a lost rank's link: the others may still answer
        std::this_thread::sleep_for(poll);
      }
    }
    trace(fmt::format("{} silent", silent.size()));
    return silent;
  }

  /// A rank's error, thrown on the leader as the error it was, naming the rank and its item, after every other
  /// rank is told to stop.
  [[noreturn]] void raise(const Message& msg) {
    const json j = cbor(msg.bytes);
    const std::string kind = j.at("kind"), item = j.at("item");
    const std::string message = fmt::format("rank {} ({}){}: {}", msg.from, host(msg.from), item.empty() ? "" : ", running " + item,
                                            j.at("message").get<std::string>());
    release(msg.from);
    if (kind == "spec") throw SpecError(message);
    if (kind == "reference") throw reference::ReferenceError(message);
    if (kind == "write") throw WriteError(message);
    if (kind == "rank") throw RankFailure(message);
    throw std::runtime_error(message);
  }

  /// This rank was interrupted: every rank is told to stop; one that does not answer is lost (mpirun and srun
  /// signal every rank when one dies), and named with what it held.
  [[noreturn]] void stop_all(const Holding& holding) {
    trace("stopped: telling every rank");
    const std::set<int> silent = release();
    trace(fmt::format("{} rank(s) silent", silent.size()));
    if (silent.empty()) throw Interrupted();
    std::string text;
    for (int r : silent)
      text += fmt::format("{}rank {} ({}, pid {}) stopped without a word (killed, or crashed){}", text.empty() ? "" : "; ", r, host(r),
                          pids_[static_cast<std::size_t>(r)], held(holding, r));
    throw RankFailure(text + resume_hint);
  }

  /// Another rank said it was stopped by a signal: if this one was too, the run was interrupted; else that rank
  /// alone was stopped, and the run cannot finish.
  [[noreturn]] void lost_or_stopped(int from, const Holding& holding, bool here_too) {
    stopped_.insert(from);  // it has said so: alive
    if (here_too) stop_all(holding);
    release(from);
    throw RankFailure(fmt::format("rank {} ({}) was stopped by a signal{}{}", from, host(from), held(holding, from), resume_hint));
  }

  static std::string held(const Holding& holding, int r) {
    const auto it = holding.find(r);
    if (it == holding.end() || it->second.empty()) return "";
    std::string text = " while it ran or had queued ";
    std::size_t shown = 0;
    for (const auto& [item, what] : it->second) {
      if (shown == 3) return text + fmt::format(" and {} more", it->second.size() - 3);
      text += (shown++ ? "; " : "") + what;
    }
    return text;
  }

  /// The leader: hands items out to its own threads and, as they ask, to the other ranks, in the phase's order
  /// (longest first) as their `after` items are done, each with the `after` item's bytes where that rank lacks them;
  /// gathers their bytes into the slots.
  void lead(const Phase& phase, int jobs) {
    struct Local {
      std::size_t item;
      double seconds;
      std::exception_ptr error;
    };
    const std::size_t count = phase.count;
    auto item_at = [&](std::size_t k) { return phase.order.empty() ? k : phase.order[k]; };
    auto after = [&](std::size_t i) { return phase.after.empty() ? Phase::none : phase.after[i]; };
    std::mutex m;  // guards what follows, to `last`
    std::condition_variable woken, ready;
    // The positions in the order of the items that may start, smallest first; an item waiting for its `after`
    // item joins them when that one is done.
    std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> startable;
    std::map<std::size_t, std::vector<std::size_t>> waiting_for;  // `after` item -> positions waiting for it
    std::size_t handed = 0;
    std::deque<Local> finished;
    Holding holding;
    bool stopping = false;
    std::string last;
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t p = after(item_at(k));
      if (p == Phase::none) startable.push(k);
      else waiting_for[p].push_back(k);
    }
    std::vector<std::set<std::size_t>> has(static_cast<std::size_t>(size()));  // the `after` items each rank holds
    std::map<std::size_t, std::string> bytes_of;  // an `after` item's bytes, kept to send on
    std::vector<Clock::time_point> heard(static_cast<std::size_t>(size()), Clock::now());  // each rank's last word

    // The next startable item for rank r (under m); none when nothing may start yet.
    auto take = [&](int r) {
      if (startable.empty()) return Phase::none;
      const std::size_t i = item_at(startable.top());
      startable.pop(), ++handed;
      holding[r][i] = last = phase.describe(i);
      return i;
    };
    auto holding_now = [&] {
      std::lock_guard lock(m);
      return holding;
    };
    auto stop_threads = [&](bool at_once) {
      {
        std::lock_guard lock(m);
        stopping = true;
        if (at_once) interrupt_flag = true;  // the run has failed: its running items stop at their next poll
      }
      ready.notify_all();
    };
    std::vector<std::jthread> threads;
    try {
      for (int j = 0; j < std::max(1, jobs); ++j)
        threads.emplace_back([&] {
          while (true) {
            std::size_t i = Phase::none;
            {
              std::unique_lock lock(m);
              ready.wait(lock, [&] { return stopping || (i = take(0)) != Phase::none || handed == count; });
              if (stopping || i == Phase::none) return;
            }
            const auto t0 = Clock::now();
            Local r{i, 0, nullptr};
            try {
              phase.work(i);
            } catch (...) {
              r.error = std::current_exception();
            }
            r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
            std::lock_guard lock(m);
            finished.push_back(r);
            woken.notify_all();
          }
        });
      std::size_t done = 0, shown_done = static_cast<std::size_t>(-1);
      auto shown = Clock::now() - std::chrono::seconds(1);
      // A rank is done with the phase when a request of its was answered with no items: each asks as long as it
      // is not, so the phase ends when every item is done and every rank was told (no request is left in flight).
      std::set<int> told;
      std::map<int, std::size_t> waiting;  // requests that found nothing startable: answered as items become so
      auto mark_done = [&](std::size_t i, int r, double seconds) {
        {
          std::lock_guard lock(m);
          holding[r].erase(i);
          if (const auto it = waiting_for.find(i); it != waiting_for.end()) {
            for (std::size_t k : it->second) startable.push(k);
            waiting_for.erase(it);
          }
        }
        ready.notify_all();
        phase.done(i, r, seconds), ++done;
      };
      while (done < count || static_cast<int>(told.size()) < size() - 1) {
        if (interrupted()) {
          stop_threads(false);
          stop_all(holding_now());
        }
        std::deque<Local> local;
        {
          std::unique_lock lock(m);
          woken.wait_for(lock, poll, [&] { return !finished.empty(); });
          local.swap(finished);
        }
        for (const Local& r : local) {
          if (r.error) {  // the first error, as in one process: the other ranks are told to stop
            stop_threads(true);
            release();
            std::rethrow_exception(r.error);
          }
          mark_done(r.item, 0, r.seconds);
          has[0].insert(r.item);
        }
        while (auto msg = next({t_request, t_result, t_error, t_stopped, t_alive})) {
          heard[static_cast<std::size_t>(msg->from)] = Clock::now();
          if (msg->tag == t_alive) continue;
          if (msg->tag == t_error) stop_threads(true), raise(*msg);
          if (msg->tag == t_stopped) {
            const bool here_too = interrupted();  // before stop_threads sets the flag
            stop_threads(true), lost_or_stopped(msg->from, holding_now(), here_too);
          }
          const json j = cbor(msg->bytes);
          if (msg->tag == t_request) {
            waiting[msg->from] = j.at("want");
          } else {
            const std::size_t i = j.at("item");
            phase.unpack(i, view(j.at("bytes")));
            has[static_cast<std::size_t>(msg->from)].insert(i);
            if (waiting_for.count(i)) bytes_of[i] = std::string(view(j.at("bytes")));  // to send on to the ranks that need it
            mark_done(i, msg->from, j.at("seconds").get<double>());
          }
        }
        // Requests: up to `want` startable items each, with the `after` bytes the rank lacks; all handed: none, the
        // phase is over for that rank; nothing startable yet: the request waits.
        for (auto it = waiting.begin(); it != waiting.end();) {
          const int r = it->first;
          json given = json::array(), needs = json::array();
          bool over = false;
          {
            std::lock_guard lock(m);
            for (std::size_t w = it->second; w > 0 && !stopping; --w) {
              const std::size_t i = take(r);
              if (i == Phase::none) break;
              given.push_back(i);
              if (const std::size_t p = after(i); p != Phase::none && has[static_cast<std::size_t>(r)].insert(p).second) {
                auto b = bytes_of.find(p);
                if (b == bytes_of.end()) b = bytes_of.emplace(p, phase.pack(p)).first;  // ran here: packed once
                needs.push_back(json::array({p, binary(b->second)}));
              }
            }
            over = given.empty() && handed == count;
          }
          if (given.empty() && !over) {
            ++it;
            continue;
          }
          send(r, t_items, cbor(json{{"items", given}, {"needs", needs}}));
          if (over) told.insert(r), finished_.insert(r);
          it = waiting.erase(it);
        }
        // A rank that holds items and has said nothing for long is lost (its launcher did not stop the job).
        for (int r = 1; r < size(); ++r)
          if (Clock::now() - heard[static_cast<std::size_t>(r)] > silent_at_most()) {
            const Holding now = holding_now();
            if (now.count(r) && !now.at(r).empty()) {
              stop_threads(true);
              release(r);
              throw RankFailure(fmt::format("rank {} ({}, pid {}) has said nothing for {} s{}: it is lost (hung, or its node unreachable){}",
                                            r, host(r), pids_[static_cast<std::size_t>(r)], silent_at_most().count(), held(now, r),
                                            resume_hint));
            }
          }
        if (done != shown_done && (Clock::now() - shown > std::chrono::milliseconds(100) || done == count)) {
          std::string what;
          {
            std::lock_guard lock(m);
            what = done < count ? last : "";
          }
          phase.progress(done, count, what), shown = Clock::now(), shown_done = done;
        }
      }
    } catch (...) {
      stop_threads(false);
      throw;  // the threads join first (their items stop at the signal's flag or end)
    }
    stop_threads(false);
    closed_ = true;  // every other rank has its last word said and ends: none is to be stopped
  }

  /// Any other rank: asks the leader for items as its threads free up (one more than it has threads, so that none
  /// waits on a message), unpacks the bytes they need, runs them, sends their bytes back.
  void follow(const Phase& phase, int jobs) {
    struct Done {
      std::size_t item;
      double seconds;
      std::string bytes;
      std::exception_ptr error;
    };
    std::mutex m;  // guards what follows
    std::condition_variable woken;
    std::deque<std::size_t> queue;
    std::size_t busy = 0;
    bool over = false, stopping = false;
    std::deque<Done> finished;
    const std::size_t n = static_cast<std::size_t>(std::max(1, jobs));
    bool asked = false;  // the main thread's own
    auto said = Clock::now();
    auto stop_threads = [&] {
      {
        std::lock_guard lock(m);
        stopping = true;
      }
      woken.notify_all();
    };
    std::vector<std::jthread> threads;
    try {
      for (std::size_t j = 0; j < n; ++j)
        threads.emplace_back([&] {
          while (true) {
            std::size_t i;
            {
              std::unique_lock lock(m);
              woken.wait(lock, [&] { return stopping || !queue.empty() || over; });
              if (stopping || queue.empty()) return;
              i = queue.front(), queue.pop_front(), ++busy;
            }
            const auto t0 = Clock::now();
            Done d{i, 0, {}, nullptr};
            try {
              phase.work(i);
              d.bytes = phase.pack(i);
            } catch (...) {
              d.error = std::current_exception();
            }
            d.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
            std::lock_guard lock(m);
            finished.push_back(std::move(d)), --busy;
            woken.notify_all();
          }
        });
      while (true) {
        if (interrupted()) {
          stop_threads();
          say_stopped();
          throw Interrupted();
        }
        std::deque<Done> local;
        std::size_t want = 0;
        bool all_done = false;
        {
          std::unique_lock lock(m);
          woken.wait_for(lock, poll, [&] { return !finished.empty(); });
          local.swap(finished);
          if (!over && !asked && queue.size() + busy < n + 1) want = n + 1 - queue.size() - busy;
          all_done = over && queue.empty() && busy == 0;
        }
        for (Done& d : local) {
          if (d.error) {
            stop_threads();
            try {
              std::rethrow_exception(d.error);
            } catch (const Interrupted&) {
              say_stopped();
              throw;
            } catch (const std::exception& e) {
              interrupt_flag = true;  // this rank's other items stop at their next poll
              send(0, t_error, cbor(json{{"kind", error_kind(e)}, {"message", e.what()}, {"item", phase.describe(d.item)}}));
              throw Released();  // the leader says what failed
            }
          }
          send(0, t_result, cbor(json{{"item", d.item}, {"seconds", d.seconds}, {"bytes", binary(d.bytes)}}));
        }
        if (all_done && local.empty()) {
          closed_ = true;  // this rank's share is done: its last sends complete before MPI ends
          break;
        }
        if (Clock::now() - said > heartbeat) send(0, t_alive, {}), said = Clock::now();  // while it holds long items
        if (want) send(0, t_request, cbor(json{{"want", want}})), asked = true;
        if (next({t_stop})) {
          stop_threads();
          released();
        }
        if (auto msg = next({t_items})) {
          const json j = cbor(msg->bytes);
          // The bytes these items need, before any of them is queued: no thread reads them yet.
          for (const auto& need : j.at("needs")) phase.unpack(need.at(0).get<std::size_t>(), view(need.at(1)));
          {
            std::lock_guard lock(m);
            for (const auto& i : j.at("items")) queue.push_back(i.get<std::size_t>());
            if (j.at("items").empty()) over = true;
          }
          asked = false;
          woken.notify_all();
        }
      }
      stop_threads();
    } catch (...) {
      stop_threads();
      throw;
    }
  }
};

}  // namespace

std::shared_ptr<Ranks> start() {
  const long launched = launched_processes();
  if (launched <= 1) return nullptr;  // one process: no MPI at all (MPI_Init would cost a launch)
  if (!launcher_present())  // refused at once, not left to MPI_Init, which may wait for a server that is not there
    throw SpecError(fmt::format("started as one of {} processes, but no launcher is there for MPI to talk to (its variables, "
                                "OMPI_COMM_WORLD_SIZE, PMI_SIZE or SLURM_STEP_NUM_TASKS, without a PMIx server or a PMI "
                                "socket): under srun, srun --mpi=pmix; else mpirun from the OpenMPI this study was built "
                                "with; or unset those variables to run as one process",
                                launched));
  auto ranks = std::make_shared<MpiRanks>();
  if (ranks->size() != launched)  // e.g. srun without the PMIx plugin: each process alone, each a leader
    throw SpecError(fmt::format("started as one of {} processes, but MPI sees {}: the launcher and this build's MPI do not "
                                "meet (under srun: srun --mpi=pmix; or mpirun from the OpenMPI this study was built with)",
                                launched, ranks->size()));
  return ranks;
}

#endif

}  // namespace study::ranks
