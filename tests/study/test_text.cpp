// Text from input made safe to echo (study/common/printable.hpp), and the rule that a reference must be finer than
// the errors measured against it (study/fit/reference_bound.hpp): every expected string below is written out by
// hand from the rules (control characters as \xNN; a value, or in a message a word, of more than 200 bytes cut to its
// first 64 and last 16 bytes, between UTF-8 characters).
#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "study/common/printable.hpp"
#include "study/fit/reference_bound.hpp"

using study::printable;
using study::printable_message;
using namespace std::string_literals;

TEST_CASE("control characters in a value are shown as hex escapes (a NUL too)", "[text]") {
  CHECK(printable("a\x1b[31mb") == "a\\x1b[31mb");
  CHECK(printable("x\0y"s) == "x\\x00y");  // the NUL and what follows it
  CHECK(printable("one\r\ntwo\tthree") == "one\\x0d\\x0atwo\\x09three");
  CHECK(printable("del\x7f") == "del\\x7f");
  CHECK(printable("\x1f ~ \x20") == "\\x1f ~  ");  // 0x1f the last control character, 0x20 and '~' printable
  CHECK(printable("caf\xc3\xa9") == "caf\xc3\xa9");  // UTF-8 passes through
  CHECK(printable("") == "");
}

TEST_CASE("a message keeps its line breaks and tabs and escapes the rest", "[text]") {
  CHECK(printable_message("line one\n\tline two\r\x1b[2J") == "line one\n\tline two\\x0d\\x1b[2J");
  CHECK(printable_message("key 'a\0b' unknown"s) == "key 'a\\x00b' unknown");
}

TEST_CASE("a run of more than 200 bytes is shown by its ends and its length", "[text]") {
  const std::string sevens200(200, '7'), sevens201(201, '7');
  CHECK(printable(sevens200) == sevens200);  // at the limit: whole
  CHECK(printable(sevens201) == std::string(64, '7') + "...[201 bytes]..." + std::string(16, '7'));
  CHECK(printable_message("b = " + std::string(5000, '9') + " here") ==
        "b = " + std::string(64, '9') + "...[5000 bytes]..." + std::string(16, '9') + " here");
  // Escaping counts: 67 ESC bytes are 268 bytes shown, over the limit; the length given is the input's.
  const std::string escapes(67, '\x1b');
  std::string shown;
  for (int i = 0; i < 67; ++i) shown += "\\x1b";
  CHECK(printable(escapes) == shown.substr(0, 64) + "...[67 bytes]..." + shown.substr(shown.size() - 16));
  // Cut between UTF-8 characters: "a" then 150 two-byte e-acutes (301 bytes); byte 64 is the second half of a
  // character, so the head is 63 bytes ("a" and 31 of them); byte 285 starts one, so the tail is 8 of them.
  std::string accents = "a";
  for (int i = 0; i < 150; ++i) accents += "\xc3\xa9";
  std::string head = "a", tail;
  for (int i = 0; i < 31; ++i) head += "\xc3\xa9";
  for (int i = 0; i < 8; ++i) tail += "\xc3\xa9";
  CHECK(printable(accents) == head + "...[301 bytes]..." + tail);
}

TEST_CASE("a value is capped whole and a one-line message escapes its line breaks", "[text]") {
  // A title of short words, 100 x "word " (500 bytes): capped whole, where a message would keep it (no long word).
  std::string words;
  for (int i = 0; i < 100; ++i) words += "word ";
  CHECK(printable(words) == words.substr(0, 64) + "...[500 bytes]..." + words.substr(500 - 16));
  CHECK(printable_message(words) == words);
  CHECK(study::printable_line("key 'a\nstudy check: PASS'\tx") == "key 'a\\x0astudy check: PASS'\\x09x");
  CHECK(study::printable_line("b = " + std::string(300, '1')) == "b = " + std::string(64, '1') + "...[300 bytes]..." + std::string(16, '1'));
  const study::OneLineError e("unknown key 'a\nPASS'");
  CHECK(std::string(e.what()) == "unknown key 'a\\x0aPASS'");
}

TEST_CASE("printable is idempotent and an EchoError stores its message printable", "[text]") {
  for (const std::string& s : {"a\x1b[31mb"s, "x\0y"s, std::string(5000, '7'), std::string(67, '\x1b'), "a\nb\tc"s}) {
    CHECK(printable(printable(s)) == printable(s));
    CHECK(printable_message(printable_message(s)) == printable_message(s));
    CHECK(study::printable_line(study::printable_line(s)) == study::printable_line(s));
  }
  const study::EchoError e("unknown key 'a\x1b[2J\0'\nnext line"s);
  CHECK(std::string(e.what()) == "unknown key 'a\\x1b[2J\\x00'\nnext line");
}

TEST_CASE("a reference is refused when its certified bound is not 100 times below the largest error", "[reference]") {
  // At exactly 100 times the bound the errors can be measured; just below they cannot.
  CHECK(study::reference_bound_problem(1e-12, 1e-10, 1e-20).empty());
  CHECK(study::reference_bound_problem(1e-12, 1e-3, 1e-20).empty());
  const std::string why = study::reference_bound_problem(1e-12, 9.9e-11, 1e-20);
  CHECK_THAT(why, Catch::Contains("certified error bound 1.00e-12 is not 100 times below the largest error measured against it "
                                  "(9.90e-11)") && Catch::Contains("reference_tol (now 1e-20)"));
  CHECK_FALSE(study::reference_bound_problem(0.35, 0.8, 1e-28).empty());  // Kepler at e = 0.9999999999 (issue 34)
  // Nothing to judge: an exact solution (bound 0), no error measured.
  CHECK(study::reference_bound_problem(0, 1e-14, 1e-20).empty());
  CHECK(study::reference_bound_problem(1e-12, std::numeric_limits<double>::quiet_NaN(), 1e-20).empty());
  CHECK(study::reference_bound_problem(1e-12, 0, 1e-20).empty());
}

TEST_CASE("the largest error of a study is over its runs that did not diverge", "[reference]") {
  struct Row {
    std::string status;
    double global, max, local;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<Row> rows{{"ok", 1e-6, 2e-6, nan}, {"ok", nan, nan, 3e-5}, {"diverged", 1e3, 1e3, 1e3}, {"ok", 1e-9, 1e-9, 1e-9}};
  CHECK(study::largest_error(rows) == 3e-5);
  CHECK(study::largest_error(std::vector<Row>{}) == 0);
}
