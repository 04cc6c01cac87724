#include "review/review_run.h"

#include <algorithm>

#include "server_context.h"

namespace outpost::server {

ReviewRun::ReviewRun(ServerContext& context, std::shared_ptr<const review::ReviewGame> game,
                     review::ReviewState state, SearchLimits limits, std::string clientKey)
    : context_(context),
      game_(std::move(game)),
      limits_(std::move(limits)),
      clientKey_(std::move(clientKey)),
      window_(static_cast<std::size_t>(std::max(1, context.pool->threads()))),
      state_(std::move(state)) {
    state_.positions.assign(game_->total(), std::nullopt);
    for (std::size_t i = 0; i < game_->total(); ++i) pending_.push_back(i);
}

void ReviewRun::start() {
    std::lock_guard lock(mutex_);
    submitMoreLocked();
}

SearchRequest ReviewRun::requestFor(std::size_t index) const {
    SearchRequest request;
    request.fen = game_->initialFen;
    // The moves, not the position's FEN: the engine sees the repetitions of the game.
    request.moves.assign(game_->moves.begin(),
                         game_->moves.begin() + static_cast<std::ptrdiff_t>(index));
    request.limits = limits_;
    return request;
}

void ReviewRun::submitMoreLocked() {
    while (!ended_ && !pending_.empty() && inFlight_.size() < window_) {
        const std::size_t index = pending_.front();
        if (auto eval = review::boardEval(game_->positions[index])) {
            pending_.pop_front();
            recordLocked(index, std::move(*eval));
            continue;
        }
        JobCallbacks callbacks;
        std::weak_ptr<ReviewRun> weak = weak_from_this();
        callbacks.onDone = [weak, index](const JobOutcome& outcome) {
            if (auto self = weak.lock()) self->onSearched(index, outcome);
        };
        Submission submission = context_.pool->submit("review:" + clientKey_, requestFor(index),
                                                      std::move(callbacks), JobPriority::Review);
        if (submission.admission != Admission::Accepted) {
            // Shutting down, or (with the registry's bounds, unexpectedly) a full review queue:
            // what is in flight may still come back; with nothing in flight the review ends.
            if (inFlight_.empty()) {
                finishLocked(submission.admission == Admission::ShuttingDown ? "stopped" : "failed",
                             submission.admission == Admission::ShuttingDown
                                 ? ""
                                 : "the review queue is full");
            }
            return;
        }
        pending_.pop_front();
        inFlight_[index] = submission.job;
    }
    if (!ended_ && pending_.empty() && inFlight_.empty()) finishLocked("done");
}

void ReviewRun::onSearched(std::size_t index, const JobOutcome& outcome) {
    std::lock_guard lock(mutex_);
    inFlight_.erase(index);
    if (ended_) return;
    if (!outcome.error.empty()) return finishLocked("failed", outcome.error);
    if (outcome.result.stopped) {
        // Stopped by the pool (a drain), not by this review: search it again if it may.
        pending_.push_front(index);
    } else {
        const ChessState& position = game_->positions[index];
        review::PositionEval eval;
        const SearchInfo& info = outcome.result.info;
        eval.eval = review::fromSideToMove(info.score.kind == Score::Kind::Mate, info.score.value,
                                           position.whiteToMove());
        eval.bestmove = outcome.result.bestmove == "0000" ? "" : outcome.result.bestmove;
        eval.pv = info.pv;
        eval.depth = info.depth;
        // A search as long as the cap was ended by it (a search that ends sooner is the same
        // search whatever the cap: SearchLimits::maxTimeMs in engine.h).
        if (limits_.maxTimeMs && outcome.timing.searchMs >= *limits_.maxTimeMs) {
            ++state_.timeCapped;
        }
        recordLocked(index, std::move(eval));
    }
    submitMoreLocked();
}

void ReviewRun::recordLocked(std::size_t index, review::PositionEval eval) {
    state_.positions[index] = std::move(eval);
    nlohmann::json line = {{"type", "reviewProgress"},
                           {"reviewId", state_.id},
                           {"done", review::positionsDone(state_)},
                           {"total", game_->total()}};
    bool sent = false;
    // The moves this position completes: the one into it and the one out of it.
    for (std::size_t ply : {index, index + 1}) {
        if (auto move = review::reviewedMoveJson(*game_, state_, ply)) {
            nlohmann::json withMove = line;
            withMove["move"] = std::move(*move);
            broadcastLocked(withMove, false);
            sent = true;
        }
    }
    if (!sent) broadcastLocked(line, false);
}

void ReviewRun::broadcastLocked(const nlohmann::json& line, bool final) {
    if (!final) {
        std::lock_guard lock(listenersMutex_);
        for (auto& [token, listener] : listeners_) listener(line, false);
        return;
    }
    // The last line ends the listeners' exchanges, whose end may unlisten() on this thread:
    // they are taken out first.
    std::map<std::uint64_t, Listener> last;
    {
        std::lock_guard lock(listenersMutex_);
        last.swap(listeners_);
    }
    for (auto& [token, listener] : last) listener(line, true);
}

void ReviewRun::finishLocked(const std::string& status, const std::string& error) {
    if (ended_) return;
    ended_ = true;
    state_.status = status;
    state_.error = error;
    for (auto& [index, job] : inFlight_) job->stop();
    // The client's review slot is free before anyone hears the review ended: a client that
    // starts its next review on the final line must not be refused (429) by this one.
    context_.reviews.release(state_.id, clientKey_);
    const nlohmann::json review = review::reviewJson(*game_, state_);
    broadcastLocked({{"type", "review"}, {"review", review}}, true);
    // Written off the searcher thread; a write that fails leaves the review on this replica
    // only (the registry keeps it a while).
    context_.storeWork.post([&context = context_, gameId = state_.gameId, id = state_.id,
                             doc = review.dump()] {
        const StoreStatus written = gameId.empty() ? context.store->putReview(id, doc)
                                                   : context.store->putGameReview(gameId, doc);
        if (written != StoreStatus::Ok) {
            context.logger.log(
                {{"event", "review_not_stored"}, {"review", id}, {"status", toString(written)}});
        }
    });
}

void ReviewRun::stop() {
    std::lock_guard lock(mutex_);
    finishLocked("stopped");
}

nlohmann::json ReviewRun::snapshot() const {
    std::lock_guard lock(mutex_);
    return review::reviewJson(*game_, state_);
}

bool ReviewRun::finished() const {
    std::lock_guard lock(mutex_);
    return ended_;
}

std::uint64_t ReviewRun::listen(Listener listener) {
    std::lock_guard lock(mutex_);
    // The Review as it is now goes first, under the lock, so no progress line overtakes it.
    listener({{"type", "review"}, {"review", review::reviewJson(*game_, state_)}}, ended_);
    if (ended_) return 0;
    std::lock_guard listenersLock(listenersMutex_);
    const std::uint64_t token = nextToken_++;
    listeners_[token] = std::move(listener);
    return token;
}

void ReviewRun::unlisten(std::uint64_t token) {
    // Not under mutex_: an exchange may end (and unlisten) while this run tells it its last line.
    std::lock_guard lock(listenersMutex_);
    listeners_.erase(token);
}

}  // namespace outpost::server
