#pragma once
/// Methods as coefficient tables in TOML ([methods.ID] in a spec, a --methods file, or the shipped library in
/// study/methods/): read, checked (consistency, lengths, the declared order against the order the coefficients
/// predict) and turned into ode::MethodTable, which the engine runs like a built-in.  The format is in
/// docs/method-tables.md.

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "integrators/table.hpp"
#include "study/common/printable.hpp"
#include "study/methods/order_conditions.hpp"

namespace study::tables {

/// A table that cannot be used: "file:line: methods.ID.key: what is wrong (what would be valid)".
struct TableError : study::OneLineError {  // its message echoes input: printable, one line
  using study::OneLineError::OneLineError;
};

/// The order the coefficients have, worked out on first use: Butcher's conditions in exact arithmetic take tens of
/// milliseconds for an 8th-order composition, which every start of the program paid for every shipped table.
/// Thread-safe; a computation that throws (a shipped table edited to declare more than it has) is tried again.
struct LazyOrder {
  std::once_flag once;
  std::function<OrderAnalysis()> compute;
  OrderAnalysis value;
};

/// What the coefficients say, beside what the table declares.
struct Prediction {
  bool symplectic = false, symmetric = false;
  std::shared_ptr<LazyOrder> lazy;  ///< set when the table is read
  /// Runge–Kutta tables only (null otherwise): the order on linear problems (linear_order), which may exceed order().
  std::shared_ptr<LazyOrder> linear;
  /// A Runge–Kutta table with embedded weights b_hat only (null otherwise): their order, from the same conditions.
  std::shared_ptr<LazyOrder> embedded;
  const OrderAnalysis& order() const { return of(*lazy); }
  static const OrderAnalysis& of(LazyOrder& l) {
    std::call_once(l.once, [&l] { l.value = l.compute(); });
    return l.value;
  }
};

/// A method's exact coefficients (what a composition is built from).
struct Coefficients {
  ode::MethodTable::Kind kind = ode::MethodTable::Kind::runge_kutta;
  std::vector<std::pair<bool, Rational>> ops;  ///< splitting: (kick?, coefficient) in order
  Matrix a;                                    ///< runge-kutta: a; nystrom: abar
  std::vector<Rational> b, bbar, c;
  double precision = 0;  ///< relative precision of the digits given (0: exact; see stated_precision)
  /// How far each coefficient as written may lie from the value meant (absolute; written_uncertainty, carried
  /// through a composition's products and sums): op_unit beside ops, a_unit, b_unit, bbar_unit and c_unit beside
  /// a, b, bbar and c.
  std::vector<double> op_unit, b_unit, bbar_unit, c_unit;
  /// runge-kutta: embedded weights (an error estimate's other solution, b - b_hat), their units and declared order
  /// (empty, 0: none).
  std::vector<Rational> b_hat;
  std::vector<double> b_hat_unit;
  int order_hat = 0;
  std::vector<std::vector<double>> a_unit;
};

/// One method table, read and checked.
struct Method {
  std::shared_ptr<const ode::MethodTable> table;
  std::string origin;  ///< "file:line" of its [methods.ID] header
  std::string kind;    ///< as written: splitting, runge-kutta, composition, nystrom
  std::string base;    ///< composition: the base method
  int stages = 0;      ///< splitting: operations; runge-kutta, nystrom: stages
  int substeps = 1;    ///< the default when a spec lists the id without substeps
  Prediction predicted;
  Coefficients exact;
};

/// Methods by id: the shipped library, --methods files, a spec's own tables.
class Library {
 public:
  /// Every [methods.ID] table of a TOML file: a methods file, or a spec holding tables when `spec_keys` lists the
  /// spec's keys (which are then skipped); any other top-level key is an error, and so is a file without a table.
  void add_file(const std::filesystem::path& file, const std::vector<std::string>& spec_keys = {});
  /// The [methods] tables of an already parsed document (a spec); `text` is its source, for the digits of numbers.
  /// A composition may name as its base a method of this library, of `also` (a spec's --methods files), of the
  /// shipped library or a built-in's table.
  void add_document(const toml::table& root, const std::string& text, const std::filesystem::path& file,
                    const Library* also = nullptr);

  const Method* find(const std::string& id) const;
  std::vector<std::string> ids() const;
  std::vector<const Method*> methods() const;

 private:
  friend const Library& shipped_library();
  void add(Method m);
  std::vector<std::string> ids_with_bases(const Library* shipped, const Library* also) const;
  std::map<std::string, Method> methods_;
  static inline const Library* building_shipped_ = nullptr;  ///< the shipped library while it is read
};

/// The shipped method library (study/methods/*.toml), read once.  Throws TableError if it is broken.
const Library& shipped_library();

/// The coefficient tables of the built-in methods that are tables (study/methods/builtin.toml, [builtin.ID]):
/// their predicted order, symplecticity and symmetry, which a test holds equal to what each declares.
const std::map<std::string, Method>& builtin_tables();

/// Reads one methods file on its own (for `study method FILE`), without the shipped library's ids; with
/// `spec_keys`, a spec holding [methods.ID] tables is read too (its other keys skipped).
Library read_methods_file(const std::filesystem::path& file, const std::vector<std::string>& spec_keys = {});

/// A user's methods files as every command reads them (`study run --methods`, `study method`): every table checked
/// as the library checks any, and an id that a shipped table has refused (a user's table may not silently replace
/// one; `study run` would refuse it, so `study method` must too).  `spec_keys`: as read_methods_file.
Library read_user_methods(const std::vector<std::string>& files, const std::vector<std::string>& spec_keys = {});

/// One line per fact for `study method`: kind, stages, evaluations, predicted order and its condition, flags.
std::string describe(const Method& m);

}  // namespace study::tables
