// Move ordering and the search's learning tables: recapture first, counter moves, continuation
// history, the correction history and the node-share time factor.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/notation.h"
#include "core/position.h"
#include "search/correction.h"
#include "search/history.h"
#include "search/movepick.h"
#include "search/timeman.h"

using namespace outpost;
using namespace outpost::search;

namespace {

Position after(const std::string& fen, const std::vector<std::string>& moves) {
    Position pos = *Position::fromFen(fen);
    for (const auto& m : moves) pos.makeMove(*moveFromUci(pos, m));
    return pos;
}

// Every move the picker hands out, in order, as UCI strings.
std::vector<std::string> order(MovePicker& picker) {
    std::vector<std::string> out;
    while (const Move m = picker.next()) out.push_back(moveToUci(m));
    return out;
}

std::size_t indexOf(const std::vector<std::string>& moves, const std::string& m) {
    for (std::size_t i = 0; i < moves.size(); ++i)
        if (moves[i] == m) return i;
    FAIL("move " << m << " not handed out");
    return moves.size();
}

}  // namespace

TEST_CASE("Recapture first: the capture of the piece that just moved goes before bigger victims",
          "[ordering]") {
    // Black's d-pawn takes on e4; White can win the queen on b8 or take back on e4.
    const Position pos = after("1q2k3/8/8/3p4/4P3/2N5/8/1R2K3 b - - 0 1", {"d5e4"});
    History history;
    Killers killers;
    SearchConfig config;
    config.recaptureFirst = true;
    MovePicker on(pos, Move::none(), 1, killers, history, config, {});
    const auto withRecapture = order(on);
    REQUIRE(withRecapture.front() == "c3e4");
    REQUIRE(indexOf(withRecapture, "b1b8") == 1);

    config.recaptureFirst = false;
    MovePicker off(pos, Move::none(), 1, killers, history, config, {});
    const auto mvvLva = order(off);
    REQUIRE(mvvLva.front() == "b1b8");
    REQUIRE(indexOf(mvvLva, "c3e4") == 1);
    REQUIRE(withRecapture.size() == mvvLva.size());
}

TEST_CASE("captureHistoryOrdering: capture history can put a pawn capture before a knight's",
          "[ordering]") {
    // Rxd5 wins a knight, Nxf3 a pawn; both are safe.
    const Position pos = after("4k3/8/8/3n4/8/5p2/8/3RK1N1 w - - 0 1", {});
    History history;
    Killers killers;
    CaptureHistory captures;
    OrderingHints hints;
    hints.captures = &captures;
    SearchConfig config;
    const auto first = [&](bool orderingOn) {
        config.captureHistoryOrdering = orderingOn;
        MovePicker picker(pos, Move::none(), 1, killers, history, config, hints);
        return order(picker).front();
    };
    // Without history, the bigger victim first in either mode.
    REQUIRE(first(false) == "d1d5");
    REQUIRE(first(true) == "d1d5");
    // Nxf3 has cut off often, Rxd5 has failed often.
    for (int i = 0; i < 64; ++i) {
        captures.update(WhiteKnight, F3, Pawn, 1200);
        captures.update(WhiteRook, D5, Knight, -1200);
    }
    REQUIRE(first(true) == "g1f3");
    // MVV-LVA with history as a tie-break keeps the knight first.
    REQUIRE(first(false) == "d1d5");
    // Quiescence's picker, with the switch on, also puts the pawn capture first.
    config.captureHistoryOrdering = true;
    MovePicker quiescence(pos, Move::none(), history, config, false, NoSquare, hints);
    const auto qsMoves = order(quiescence);
    REQUIRE(qsMoves == std::vector<std::string>{"g1f3", "d1d5"});
}

TEST_CASE("threatOrdering: a threatened queen's escapes go first, a rook into a pawn's reach last",
          "[ordering]") {
    // The e5 pawn attacks the queen on d4 (and f4); Rf1-f4 would put the rook where it attacks.
    const Position pos = after("4k3/8/8/4p3/3Q4/8/8/4KR2 w - - 0 1", {});
    History history;
    Killers killers;
    SearchConfig config;
    const auto moves = [&](bool on) {
        config.threatOrdering = on;
        MovePicker picker(pos, Move::none(), 1, killers, history, config, {});
        return order(picker);
    };
    const auto on = moves(true);
    const auto off = moves(false);
    REQUIRE(on.size() == off.size());
    REQUIRE(on.front() == "d4e5");  // the capture still comes first
    // Every quiet queen move that leaves the pawn's reach comes before every other quiet move.
    const auto isEscape = [](const std::string& m) {
        return m.rfind("d4", 0) == 0 && m != "d4e5" && m != "d4f4";
    };
    const auto firstOther =
        std::find_if(on.begin() + 1, on.end(), [&](const std::string& m) { return !isEscape(m); });
    REQUIRE(std::all_of(firstOther, on.end(), [&](const std::string& m) { return !isEscape(m); }));
    REQUIRE(firstOther - on.begin() > 10);
    // The rook's move into the pawn's reach is the last of all; Qf4 (still in reach) gets nothing.
    REQUIRE(on.back() == "f1f4");
    REQUIRE(indexOf(on, "d4f4") > indexOf(on, "e1d2"));
    REQUIRE(on != off);
    REQUIRE(off.back() != "f1f4");
}

TEST_CASE("checkOrdering: a safe quiet check goes first, one that loses the rook gains nothing",
          "[ordering]") {
    History history;
    Killers killers;
    SearchConfig config;
    const auto moves = [&](const Position& pos, bool on) {
        config.checkOrdering = on;
        MovePicker picker(pos, Move::none(), 1, killers, history, config, {});
        return order(picker);
    };
    const Position safe = after("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", {});
    REQUIRE(moves(safe, true).front() == "a1a8");
    REQUIRE(moves(safe, false).front() != "a1a8");
    // The c7 knight guards a8: Ra8+ loses the rook, so the order is as without the switch.
    const Position guarded = after("4k3/2n5/8/8/8/8/8/R3K3 w - - 0 1", {});
    REQUIRE(moves(guarded, true) == moves(guarded, false));
}

TEST_CASE("threatHistory: a move's history is kept apart by whether its squares are attacked",
          "[ordering]") {
    // The e5 pawn attacks d4 and f4: Qd4-d3 leaves an attacked square, Qd4-f4 goes to one.
    const Position pos = after("4k3/8/8/4p3/3Q4/8/8/4K3 w - - 0 1", {});
    const Bitboard threats = pos.attackedBy(Black);
    REQUIRE((threats & squareBB(D4)) != 0);
    REQUIRE((threats & squareBB(D3)) == 0);
    const Move escape = *moveFromUci(pos, "d4d3");
    History history;
    history.reward(White, escape, 1000, threats);
    REQUIRE(history.quiet(White, escape, threats) == 1000);
    // The same move between safe squares (or without the switch: no threats) learnt nothing.
    REQUIRE(history.quiet(White, escape) == 0);
    REQUIRE(history.quiet(White, escape, squareBB(D3)) == 0);
    history.punish(White, escape, 1000);
    REQUIRE(history.quiet(White, escape) < 0);
    REQUIRE(history.quiet(White, escape, threats) == 1000);
    // The picker reads the slice of its hints' threats.
    Killers killers;
    SearchConfig config;
    OrderingHints hints;
    hints.threats = threats;
    MovePicker withThreats(pos, Move::none(), 1, killers, history, config, hints);
    const auto moves = order(withThreats);
    REQUIRE(moves[1] == "d4d3");  // after the capture Qxe5
    MovePicker without(pos, Move::none(), 1, killers, history, config, {});
    REQUIRE(order(without).back() == "d4d3");
}

TEST_CASE("A losing recapture still waits for the quiet moves", "[ordering]") {
    // Black's knight takes on e4, defended by the d5 pawn: Qxe4 loses the queen for a knight.
    const Position pos = after("4k3/8/5n2/3p4/4P3/8/8/4QK2 b - - 0 1", {"f6e4"});
    History history;
    Killers killers;
    SearchConfig config;
    MovePicker picker(pos, Move::none(), 1, killers, history, config, {});
    const auto moves = order(picker);
    REQUIRE(moves.back() == "e1e4");
}

TEST_CASE("The counter move comes after the killers and before the other quiet moves",
          "[ordering]") {
    const Position pos = Position::startPosition();
    History history;
    Killers killers;
    killers.add(1, *moveFromUci(pos, "g1f3"));
    SearchConfig config;
    OrderingHints hints;
    hints.counter = *moveFromUci(pos, "b2b3");
    MovePicker picker(pos, Move::none(), 1, killers, history, config, hints);
    const auto moves = order(picker);
    REQUIRE(moves.size() == 20);
    REQUIRE(moves[0] == "g1f3");
    REQUIRE(moves[1] == "b2b3");
    // Each move exactly once.
    for (const auto& m : moves) REQUIRE(std::count(moves.begin(), moves.end(), m) == 1);

    // A counter move that is not legal here is never handed out.
    hints.counter = Move(static_cast<std::uint16_t>(E2 | (E5 << 6)));
    MovePicker illegal(pos, Move::none(), 1, killers, history, config, hints);
    const auto without = order(illegal);
    REQUIRE(without.size() == 20);
    REQUIRE(std::find(without.begin(), without.end(), "e2e5") == without.end());
}

TEST_CASE("Continuation history orders the quiet moves after a given move", "[ordering]") {
    const Position pos = after(std::string(kStartFen), {"e2e4"});
    History history;
    Killers killers;
    SearchConfig config;
    ContinuationHistory continuation;
    // After White's e4, ...c5 has answered well and ...a6 badly.
    PieceToHistory& table = continuation.after(WhitePawn, E4);
    applyHistoryBonus(table[BlackPawn][C5], 400);
    applyHistoryBonus(table[BlackPawn][A6], -400);
    OrderingHints hints;
    hints.continuation[0] = &table;
    MovePicker picker(pos, Move::none(), 1, killers, history, config, hints);
    const auto moves = order(picker);
    REQUIRE(moves.front() == "c7c5");
    REQUIRE(moves.back() == "a7a6");
    REQUIRE(quietHistoryScore(pos, *moveFromUci(pos, "c7c5"), history, hints) > 0);
}

TEST_CASE("Continuation history 4 plies back counts at half weight", "[ordering]") {
    const Position pos = after(std::string(kStartFen), {"e2e4"});
    History history;
    Killers killers;
    SearchConfig config;
    ContinuationHistory continuation;
    // The table of our move 4 plies back (here any table: only the weight is under test).
    PieceToHistory& table = continuation.after(BlackKnight, F6);
    applyHistoryBonus(table[BlackPawn][A6], 800);
    const Move a6 = *moveFromUci(pos, "a7a6");
    const int full = table[BlackPawn][A6];
    OrderingHints hints;
    REQUIRE(quietHistoryScore(pos, a6, history, hints) == 0);
    hints.continuation4 = &table;
    REQUIRE(quietHistoryScore(pos, a6, history, hints) == full / kContinuation4Divisor);
    MovePicker picker(pos, Move::none(), 1, killers, history, config, hints);
    REQUIRE(order(picker).front() == "a7a6");
}

TEST_CASE("History bonuses saturate at the bound", "[ordering]") {
    std::int16_t v = 0;
    for (int i = 0; i < 10000; ++i) applyHistoryBonus(v, kHistoryBonusCap);
    REQUIRE(v <= kHistoryMax);
    REQUIRE(v > kHistoryMax * 9 / 10);
    for (int i = 0; i < 10000; ++i) applyHistoryBonus(v, -kHistoryBonusCap);
    REQUIRE(v >= -kHistoryMax);
    REQUIRE(v < -kHistoryMax * 9 / 10);
}

TEST_CASE("Correction history moves towards what searches found, per side, bounded",
          "[correction]") {
    CorrectionHistory c;
    const Key pawns = 0x1234'5678'9abc'def0ULL;
    REQUIRE(c.correction(White, pawns) == 0);
    // Searches keep finding the position 40 cp better than its static eval.
    for (int i = 0; i < 200; ++i) c.update(White, pawns, 10, 140, 100);
    REQUIRE(c.correction(White, pawns) >= 35);
    REQUIRE(c.correction(White, pawns) <= 40);
    REQUIRE(c.correction(Black, pawns) == 0);
    // A shallow search moves it less than a deep one.
    CorrectionHistory shallow, deep;
    shallow.update(White, pawns, 1, 100, 0);
    deep.update(White, pawns, 12, 100, 0);
    REQUIRE(shallow.correction(White, pawns) < deep.correction(White, pawns));
    // However wrong the eval, the correction stays within its limit.
    for (int i = 0; i < 1000; ++i) c.update(Black, pawns, 20, -5000, 0);
    REQUIRE(c.correction(Black, pawns) >= -64);
    REQUIRE(c.correction(Black, pawns) < -50);
    c.clear();
    REQUIRE(c.correction(Black, pawns) == 0);
}

TEST_CASE("The best move's node share scales the time: clear moves save, contested ones spend",
          "[time]") {
    REQUIRE(nodeShareFactor(0.5) == Approx(1.0));
    REQUIRE(nodeShareFactor(0.95) < 1.0);
    REQUIRE(nodeShareFactor(0.1) > 1.0);
    double previous = nodeShareFactor(0.0);
    for (int i = 1; i <= 100; ++i) {
        const double f = nodeShareFactor(i / 100.0);
        REQUIRE(f <= previous);
        REQUIRE(f >= 0.6);
        REQUIRE(f <= 1.4);
        previous = f;
    }
    REQUIRE(nodeShareFactor(-1.0) == nodeShareFactor(0.0));
    REQUIRE(nodeShareFactor(2.0) == nodeShareFactor(1.0));
}
