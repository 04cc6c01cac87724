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

}  // namespace

int quietHistoryScore(const Position& pos, Move m, const History& history,
                      const OrderingHints& hints) {
    int score = history.quiet(pos.sideToMove(), m);
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
    for (auto& sm : moves_) {
        sm.score = config_.history ? quietHistoryScore(pos_, sm.move, history_, hints_) : 0;
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
