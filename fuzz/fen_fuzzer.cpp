// libFuzzer target for the text readers: FEN, then (after a newline) a move in UCI or SAN.
// Any input must be either rejected with a reason or give a position that passes validate(),
// writes a FEN that reads back to the same position, and whose moves all round-trip through
// SAN and make/unmake. Build: cmake -DOUTPOST_BUILD_FUZZERS=ON with clang (see fuzz/README.md).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/perft.h"
#include "core/position.h"

using namespace outpost;

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t newline = input.find('\n');
    const std::string_view fenText = input.substr(0, newline);
    const std::string_view moveText =
        newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);

    std::string error;
    auto parsed = Position::fromFen(fenText, &error);
    if (!parsed) {
        check(!error.empty());
        return 0;
    }
    Position& pos = *parsed;
    check(pos.validate().empty());
    const auto again = Position::fromFen(pos.toFen());
    check(again.has_value() && again->toFen() == pos.toFen() && again->key() == pos.key());

    MoveList list;
    generateLegal(pos, list);
    check(countLegalMoves(pos) == int(list.size()));
    const Key key = pos.key();
    for (const ScoredMove& sm : list) {
        const Move m = sm.move;
        check(pos.isLegal(m));
        check(moveFromSan(pos, moveToSan(pos, m)) == m);
        check(moveFromUci(pos, moveToUci(m)) == m);
        const bool givesCheck = pos.givesCheck(m);
        pos.makeMove(m);
        check(pos.validate().empty());
        check(pos.inCheck() == givesCheck);
        pos.unmakeMove();
        check(pos.key() == key);
    }
    (void)perft(pos, 2);

    if (!moveText.empty()) {
        const auto m = parseMove(pos, moveText, &error);
        if (m)
            check(list.contains(*m));
        else
            check(!error.empty());
    }
    return 0;
}
