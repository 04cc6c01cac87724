#include "search/movepick.h"

#include "core/see.h"

namespace outpost::search {
namespace {

// Score bands, far apart so the bands never mix.
constexpr int kGoodCaptureBand = 1 << 24;
constexpr int kQueenPromotionBand = 1 << 23;  // below every good capture
constexpr int kEvasionCaptureBand = 1 << 24;
// Within the captures: the recapture of the piece that just moved before every other capture,
// then MVV-LVA in steps wide enough that capture history (+-kHistoryMax) only breaks ties.
constexpr int kRecaptureBonus = 1 << 23;
constexpr int kMvvLvaStep = 2 * kHistoryMax + 1;
// captureHistoryOrdering: the victim's value times this weight, plus capture history. A pawn
// victim is 1,600 and a queen 15,200, against history's +-kHistoryMax (16,384), so a capture
// that keeps working can go before one of a bigger victim instead of only breaking ties.
constexpr int kCaptureVictimWeight = 16;

// threatOrdering: a quiet move that takes a piece out of reach of a cheaper attacker gains, one
// that puts a piece where a cheaper one attacks it loses (Stockfish's move picker does the same).
// On the scale of a quiet move's history sum (butterfly, two continuation tables and half of a
// third: up to 3.5 x kHistoryMax, 57,344): a queen's escape is worth about 0.3 of it.
constexpr int kQueenEscapeBonus = 16384;
constexpr int kRookEscapeBonus = 8192;
constexpr int kMinorEscapeBonus = 4915;
// Into reach: the queen's malus grows with each cheaper kind of attacker on the square.
constexpr int kQueenIntoRookMalus = 16384;
constexpr int kQueenIntoMinorMalus = 3277;
constexpr int kQueenIntoPawnMalus = 6554;
constexpr int kRookIntoMinorMalus = 8192;
constexpr int kRookIntoPawnMalus = 3277;
constexpr int kMinorIntoPawnMalus = 4915;
// checkOrdering: a quiet check that does not lose more than this much material by SEE ...
constexpr int kQuietCheckSeeFloor = -75;
// ... gains this much (about a tenth of the history sum).
constexpr int kQuietCheckBonus = 6144;

// Squares the side `them` attacks with pawns; with pawns or minor pieces; with pawns, minor
// pieces or rooks: where a queen, rook or minor piece of the other side can be taken by
// something worth less.
struct Threats {
    Bitboard byPawn = 0;
    Bitboard byMinor = 0;
    Bitboard byRook = 0;
};

Threats threatsBy(const Position& pos, Color them) {
    Threats t;
    const Bitboard occupied = pos.pieces();
    t.byPawn = pawnAttacksOf(them, pos.pieces(them, Pawn));
    t.byMinor = t.byPawn;
    for (Bitboard b = pos.pieces(them, Knight); b;) t.byMinor |= knightAttacks(popLsb(b));
    for (Bitboard b = pos.pieces(them, Bishop); b;) t.byMinor |= bishopAttacks(popLsb(b), occupied);
    t.byRook = t.byMinor;
    for (Bitboard b = pos.pieces(them, Rook); b;) t.byRook |= rookAttacks(popLsb(b), occupied);
    return t;
}

// The threat term of one quiet move (threatOrdering): an escape bonus when the piece stands
// where a cheaper attacker reaches and goes where none does, a malus when it goes from safety
// into such reach.
int threatScore(PieceType pt, Square from, Square to, const Threats& t) {
    const auto on = [](Bitboard b, Square s) { return (b & squareBB(s)) != 0; };
    switch (pt) {
        case Queen:
            if (on(t.byRook, from)) return on(t.byRook, to) ? 0 : kQueenEscapeBonus;
            return -(on(t.byRook, to) ? kQueenIntoRookMalus : 0) -
                   (on(t.byMinor, to) ? kQueenIntoMinorMalus : 0) -
                   (on(t.byPawn, to) ? kQueenIntoPawnMalus : 0);
        case Rook:
            if (on(t.byMinor, from)) return on(t.byMinor, to) ? 0 : kRookEscapeBonus;
            return -(on(t.byMinor, to) ? kRookIntoMinorMalus : 0) -
                   (on(t.byPawn, to) ? kRookIntoPawnMalus : 0);
        case Knight:
        case Bishop:
            if (on(t.byPawn, from)) return on(t.byPawn, to) ? 0 : kMinorEscapeBonus;
            return on(t.byPawn, to) ? -kMinorIntoPawnMalus : 0;
        default:
            return 0;  // pawns and the king (which never moves into an attack)
    }
}

}  // namespace

int quietHistoryScore(const Position& pos, Move m, const History& history,
                      const OrderingHints& hints) {
    int score = history.quiet(pos.sideToMove(), m, hints.threats);
    const Piece piece = pos.movedPiece(m);
    for (const PieceToHistory* c : hints.continuation) {
        if (c != nullptr) score += (*c)[piece][m.to()];
    }
    if (hints.continuation4 != nullptr)
        score += (*hints.continuation4)[piece][m.to()] / kContinuation4Divisor;
    return score;
}

MovePicker::MovePicker(const Position& pos, Move ttMove, int ply, const Killers& killers,
                       const History& history, const SearchConfig& config,
                       const OrderingHints& hints)
    : pos_(pos), history_(history), config_(config), killers_(&killers), hints_(hints) {
    ttMove_ = ttMove && pos.isLegal(ttMove) ? ttMove : Move::none();
    if (pos.inCheck()) {
        stage_ = ttMove_ ? Stage::TableMove : Stage::GenerateEvasions;
    } else {
        stage_ = ttMove_ ? Stage::TableMove : Stage::GenerateCaptures;
        if (config.killers) {
            killer1_ = killers.first(ply);
            killer2_ = killers.second(ply);
        }
        counter_ = hints.counter;
    }
}

MovePicker::MovePicker(const Position& pos, Move ttMove, const History& history,
                       const SearchConfig& config, bool includeChecks, Square threatSquare,
                       const OrderingHints& hints)
    : pos_(pos),
      history_(history),
      config_(config),
      hints_(hints),
      includeChecks_(includeChecks),
      threatSquare_(threatSquare) {
    // In quiescence the table move is only used if it is a move quiescence would search anyway.
    const bool usable = ttMove && pos.isLegal(ttMove) &&
                        (pos.inCheck() || pos.isCaptureOrPromotion(ttMove) ||
                         (includeChecks && pos.givesCheck(ttMove)) ||
                         (threatSquare != NoSquare && ttMove.from() == threatSquare));
    ttMove_ = usable ? ttMove : Move::none();
    if (pos.inCheck()) {
        stage_ = ttMove_ ? Stage::TableMove : Stage::GenerateEvasions;
    } else {
        stage_ = ttMove_ ? Stage::TableMove : Stage::QsGenerateCaptures;
    }
}

MovePicker::MovePicker(const Position& pos, const MoveList& rootMoves, const History& history,
                       const SearchConfig& config)
    : pos_(pos), history_(history), config_(config), stage_(Stage::Root), moves_(rootMoves) {}

int MovePicker::captureScore(Move m) const {
    int score = 0;
    const bool capture = pos_.isCapture(m);
    if (config_.captureHistoryOrdering && hints_.captures != nullptr) {
        // The victim's value on the scale of capture history (added below); the promotion's
        // gain counts as a victim.
        score = kSeeValue[pos_.capturedType(m)] * kCaptureVictimWeight;
        if (m.isPromotion()) score += kSeeValue[m.promotionType()] * kCaptureVictimWeight;
    } else if (config_.mvvLva) {
        // Most valuable victim first; among equal victims, the least valuable attacker.
        const int victim = pos_.capturedType(m);
        const int attacker = typeOf(pos_.movedPiece(m));
        score = (victim * 8 + (King - attacker)) * kMvvLvaStep;
        if (m.isPromotion()) score += m.promotionType() * 16 * kMvvLvaStep;
    }
    if (hints_.captures != nullptr && capture) {
        score += hints_.captures->score(pos_.movedPiece(m), m.to(), pos_.capturedType(m));
    }
    // The recapture of the piece that just moved goes before the other captures: the exchange
    // the opponent started is usually the one to answer.
    const Move last = pos_.lastMove();
    if (config_.recaptureFirst && last.isOk() && m.to() == last.to() && capture) {
        score += kRecaptureBonus;
    }
    return score;
}

void MovePicker::scoreCaptures() {
    for (auto& sm : moves_) {
        sm.score = captureScore(sm.move);
        if (!pos_.isCapture(sm.move) && sm.move.isPromotion()) {
            // Quiet promotions: queen after the good captures; under-promotions last.
            sm.score = sm.move.promotionType() == Queen ? kQueenPromotionBand : -1;
        } else {
            sm.score += kGoodCaptureBand;
        }
    }
}

void MovePicker::scoreQuiets() {
    const Threats threats =
        config_.threatOrdering ? threatsBy(pos_, ~pos_.sideToMove()) : Threats{};
    for (auto& sm : moves_) {
        sm.score = config_.history ? quietHistoryScore(pos_, sm.move, history_, hints_) : 0;
        if (!config_.threatOrdering && !config_.checkOrdering) continue;
        const PieceType pt = typeOf(pos_.movedPiece(sm.move));
        if (config_.threatOrdering)
            sm.score += threatScore(pt, sm.move.from(), sm.move.to(), threats);
        if (config_.checkOrdering && (pos_.checkSquares(pt) & squareBB(sm.move.to())) &&
            seeGe(pos_, sm.move, kQuietCheckSeeFloor)) {
            sm.score += kQuietCheckBonus;
        }
    }
}

void MovePicker::scoreEvasions() {
    for (auto& sm : moves_) {
        if (pos_.isCaptureOrPromotion(sm.move)) {
            sm.score = kEvasionCaptureBand + captureScore(sm.move);
        } else {
            sm.score = config_.history ? quietHistoryScore(pos_, sm.move, history_, hints_) : 0;
        }
    }
}

Move MovePicker::pickBest() {
    std::size_t best = cursor_;
    for (std::size_t i = cursor_ + 1; i < moves_.size(); ++i) {
        if (moves_[i].score > moves_[best].score) best = i;
    }
    std::swap(moves_[cursor_], moves_[best]);
    return moves_[cursor_++].move;
}

Move MovePicker::next(bool skipQuiets) {
    while (true) {
        switch (stage_) {
            case Stage::TableMove:
                stage_ = pos_.inCheck()        ? Stage::GenerateEvasions
                         : killers_ != nullptr ? Stage::GenerateCaptures
                                               : Stage::QsGenerateCaptures;
                lastStage_ = PickStage::TableMove;
                return ttMove_;

            case Stage::GenerateCaptures:
                moves_.clear();
                generate<GenType::Captures>(pos_, moves_);
                scoreCaptures();
                cursor_ = 0;
                stage_ = Stage::GoodCaptures;
                [[fallthrough]];
            case Stage::GoodCaptures:
                while (cursor_ < moves_.size()) {
                    const Move m = pickBest();
                    if (m == ttMove_) continue;
                    const ScoredMove& sm = moves_[cursor_ - 1];
                    // Losing captures and under-promotions wait until the quiet moves are done.
                    const bool losing =
                        sm.score < 0 || (config_.see && pos_.isCapture(m) && !seeGe(pos_, m, 0));
                    if (losing) {
                        badCaptures_.push(m);
                        continue;
                    }
                    lastStage_ = PickStage::GoodCapture;
                    return m;
                }
                stage_ = Stage::Killer1;
                [[fallthrough]];
            case Stage::Killer1:
                stage_ = Stage::Killer2;
                if (!skipQuiets && killer1_ && killer1_ != ttMove_ &&
                    !pos_.isCaptureOrPromotion(killer1_) && pos_.isLegal(killer1_)) {
                    lastStage_ = PickStage::Killer;
                    return killer1_;
                }
                [[fallthrough]];
            case Stage::Killer2:
                stage_ = Stage::CounterMove;
                if (!skipQuiets && killer2_ && killer2_ != ttMove_ && killer2_ != killer1_ &&
                    !pos_.isCaptureOrPromotion(killer2_) && pos_.isLegal(killer2_)) {
                    lastStage_ = PickStage::Killer;
                    return killer2_;
                }
                [[fallthrough]];
            case Stage::CounterMove:
                stage_ = Stage::GenerateQuiets;
                if (!skipQuiets && counter_ && counter_ != ttMove_ && counter_ != killer1_ &&
                    counter_ != killer2_ && !pos_.isCaptureOrPromotion(counter_) &&
                    pos_.isLegal(counter_)) {
                    lastStage_ = PickStage::CounterMove;
                    return counter_;
                }
                [[fallthrough]];
            case Stage::GenerateQuiets:
                moves_.clear();
                cursor_ = 0;
                if (!skipQuiets) {
                    generate<GenType::Quiets>(pos_, moves_);
                    scoreQuiets();
                }
                stage_ = Stage::Quiets;
                [[fallthrough]];
            case Stage::Quiets:
                while (!skipQuiets && cursor_ < moves_.size()) {
                    const Move m = pickBest();
                    if (m == ttMove_ || m == killer1_ || m == killer2_ || m == counter_) continue;
                    lastStage_ = PickStage::Quiet;
                    return m;
                }
                cursor_ = 0;
                stage_ = Stage::BadCaptures;
                [[fallthrough]];
            case Stage::BadCaptures:
                while (cursor_ < badCaptures_.size()) {
                    const Move m = badCaptures_[cursor_++].move;
                    // Under-promotions are quiet moves for the purpose of pruning.
                    if (skipQuiets && !pos_.isCapture(m)) continue;
                    lastStage_ = PickStage::BadCapture;
                    return m;
                }
                stage_ = Stage::Done;
                return Move::none();

            case Stage::GenerateEvasions:
                moves_.clear();
                generate<GenType::Legal>(pos_, moves_);
                scoreEvasions();
                cursor_ = 0;
                stage_ = Stage::Evasions;
                [[fallthrough]];
            case Stage::Evasions:
                while (cursor_ < moves_.size()) {
                    const Move m = pickBest();
                    if (m == ttMove_) continue;
                    lastStage_ = PickStage::Evasion;
                    return m;
                }
                stage_ = Stage::Done;
                return Move::none();

            case Stage::QsGenerateCaptures:
                moves_.clear();
                generate<GenType::Captures>(pos_, moves_);
                for (auto& sm : moves_) {
                    // In the band, so a capture with a poor history is never taken for the
                    // under-promotions' mark below.
                    sm.score = kGoodCaptureBand + captureScore(sm.move);
                    // Under-promotions are not worth a quiescence node.
                    if (sm.move.isPromotion() && sm.move.promotionType() != Queen) sm.score = -1;
                }
                cursor_ = 0;
                stage_ = Stage::QsCaptures;
                [[fallthrough]];
            case Stage::QsCaptures:
                while (cursor_ < moves_.size()) {
                    const Move m = pickBest();
                    if (m == ttMove_ || moves_[cursor_ - 1].score < 0) continue;
                    lastStage_ = PickStage::GoodCapture;
                    return m;
                }
                stage_ = Stage::QsGenerateQuiets;
                [[fallthrough]];
            case Stage::QsGenerateQuiets:
                moves_.clear();
                cursor_ = 0;
                if (includeChecks_ || threatSquare_ != NoSquare) {
                    MoveList quiets;
                    generate<GenType::Quiets>(pos_, quiets);
                    for (const auto& sm : quiets) {
                        const Move m = sm.move;
                        if (m == ttMove_) continue;
                        const bool evadesThreat =
                            threatSquare_ != NoSquare && m.from() == threatSquare_;
                        if (evadesThreat || (includeChecks_ && pos_.givesCheck(m))) moves_.push(m);
                    }
                    scoreQuiets();
                }
                stage_ = Stage::QsQuiets;
                [[fallthrough]];
            case Stage::QsQuiets:
                if (cursor_ < moves_.size()) {
                    lastStage_ = PickStage::Quiet;
                    return pickBest();
                }
                stage_ = Stage::Done;
                return Move::none();

            case Stage::Root:
                if (cursor_ < moves_.size()) {
                    lastStage_ = PickStage::Root;
                    return moves_[cursor_++].move;
                }
                stage_ = Stage::Done;
                return Move::none();

            case Stage::Done:
                return Move::none();
        }
    }
}

}  // namespace outpost::search
