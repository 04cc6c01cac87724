#include "ws/ws_connection.h"

#include "analysis/analysis.h"
#include "analysis/analysis_cache.h"
#include "analysis/search_record.h"
#include "errors/error_codes.h"
#include "games/game_feed.h"
#include "games/game_json.h"
#include "games/game_service.h"
#include "games/move_request.h"
#include "games/open_feed.h"
#include "review/review_service.h"

namespace outpost::server {

namespace {

// Fields every client message may carry besides its own.
nlohmann::json withId(nlohmann::json message, const nlohmann::json& id) {
    if (!id.is_null()) message["id"] = id;
    return message;
}

// What goes on the wire (invalid UTF-8 from a client replaced, never an exception).
std::string wireText(const nlohmann::json& message) {
    return message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

WsConnection::WsConnection(ServerContext& context, ClientInfo client,
                           std::shared_ptr<WsOutbox> outbox)
    : context_(context),
      client_(std::move(client)),
      outbox_(std::move(outbox)),
      storeStrand_(context.storeWork.makeStrand()) {}

void WsConnection::offload(void (WsConnection::*task)(const nlohmann::json&),
                           nlohmann::json message) {
    context_.storeWork.post(storeStrand_,
                            [self = shared_from_this(), task, message = std::move(message)] {
                                // The same boundary as onMessage's, on the store strand.
                                try {
                                    ((*self).*task)(message);
                                } catch (const std::exception& error) {
                                    self->failMessage(message.dump(), error.what());
                                } catch (...) {
                                    self->failMessage(message.dump(), "unknown exception");
                                }
                            });
}

void WsConnection::send(const nlohmann::json& message, CoalesceKey coalesceKey) {
    outbox_->send(wireText(message), coalesceKey);
}

void WsConnection::sendError(const nlohmann::json& id, std::string_view code,
                             std::string_view message) {
    send(withId({{"type", "error"}, {"code", code}, {"message", message}}, id));
}

void WsConnection::onBinaryMessage() {
    sendError(nullptr, errors::bad_request, "binary messages are not supported; send JSON text");
}

void WsConnection::onMessage(std::string_view text) {
    // The boundary: whatever a message handler throws, the client gets an error and the
    // connection (and the server) go on.
    try {
        handleMessage(text);
    } catch (const std::exception& error) {
        failMessage(text, error.what());
    } catch (...) {
        failMessage(text, "unknown exception");
    }
}

void WsConnection::failMessage(std::string_view text, const std::string& what) {
    context_.metrics.internalError("websocket");
    context_.logger.log({{"event", "internal_error"},
                         {"where", "websocket"},
                         {"error", what},
                         {"client", client_.address}});
    nlohmann::json id;
    nlohmann::json message = nlohmann::json::parse(text, nullptr, false);
    if (message.is_object() && message.contains("id") &&
        (message.at("id").is_string() || message.at("id").is_number_integer())) {
        id = message.at("id");
    }
    sendError(id, errors::internal, "the server failed to handle this message");
}

void WsConnection::handleMessage(std::string_view text) {
    std::string duplicateKey;
    nlohmann::json message = parseJsonText(text, duplicateKey);
    if (message.is_discarded()) {
        return sendError(nullptr, errors::bad_json,
                         duplicateKey.empty()
                             ? std::string("the message is not valid JSON")
                             : "the message names the key " + quotedInput(duplicateKey) +
                                   " twice in one object");
    }
    if (!message.is_object())
        return sendError(nullptr, errors::bad_request, "a message must be a JSON object");
    const nlohmann::json id = message.contains("id") ? message.at("id") : nlohmann::json();
    if (!id.is_null() && !id.is_string() && !id.is_number_integer()) {
        return sendError(nullptr, errors::bad_request, "'id' must be a string or an integer");
    }
    if (!message.contains("type") || !message.at("type").is_string()) {
        return sendError(id, errors::bad_request, "a message needs a string 'type'");
    }
    const std::string type = message.at("type").get<std::string>();
    if (type == "analyse" || type == "analyze") return analyse(message);
    if (type == "stop") return stop(message);
    if (type == "subscribe") return offload(&WsConnection::subscribe, std::move(message));
    if (type == "unsubscribe") return offload(&WsConnection::unsubscribe, std::move(message));
    if (type == "move") return offload(&WsConnection::move, std::move(message));
    if (type == "review") return offload(&WsConnection::review, std::move(message));
    if (type == "ping") return send(withId({{"type", "pong"}}, id));
    sendError(id, errors::bad_request, "unknown message type " + quotedInput(type));
}

void WsConnection::analyse(const nlohmann::json& message) {
    const nlohmann::json id = message.contains("id") ? message.at("id") : nlohmann::json();
    auto parsed = parseAnalysis(message, context_.config, {"type", "id"});
    if (auto* error = std::get_if<ApiError>(&parsed))
        return sendError(id, error->code, error->message);
    if (context_.draining.load()) {
        return sendError(id, errors::shutting_down, "the server is shutting down");
    }
    auto spec = std::make_shared<const AnalysisSpec>(std::move(std::get<AnalysisSpec>(parsed)));
    const std::string key = id.dump();
    std::weak_ptr<WsConnection> weak = weak_from_this();
    JobCallbacks callbacks;
    callbacks.onInfo = [weak, spec, id, key](const SearchInfo& info) {
        auto self = weak.lock();
        if (!self) return;
        nlohmann::json line = analysisInfoJson(info, *spec);
        line["type"] = "info";
        // Each search (by its id) and each of its lines keeps its latest report.
        self->send(withId(std::move(line), id), progressKey("analysis " + key, info.multipv));
    };
    auto jobId = std::make_shared<std::atomic<std::uint64_t>>(0);
    callbacks.onDone = [weak, spec, id, key, jobId, &context = context_,
                        client = client_](const JobOutcome& outcome) {
        recordSearch(context, "ws", jobId->load(), client, outcome);
        feedAnalysisCache(context, *spec, outcome);
        auto self = weak.lock();
        if (!self) return;
        {
            std::lock_guard lock(self->mutex_);
            auto it = self->searches_.find(key);
            if (it != self->searches_.end() && it->second && it->second->id() == jobId->load()) {
                self->searches_.erase(it);
            }
        }
        if (!outcome.error.empty()) return self->sendError(id, errors::internal, outcome.error);
        nlohmann::json result = analysisResultJson(outcome, *spec);
        result["type"] = "bestmove";
        self->send(withId(std::move(result), id));
    };
    Submission submission =
        context_.pool->submit(client_.address, spec->request, std::move(callbacks));
    if (submission.admission != Admission::Accepted) {
        context_.metrics.searchRejected(toString(submission.admission));
        ApiError error = admissionError(submission.admission, context_.config);
        nlohmann::json reply =
            withId({{"type", "error"}, {"code", error.code}, {"message", error.message}}, id);
        if (error.retryAfterSeconds) reply["retryAfter"] = *error.retryAfterSeconds;
        return send(reply);
    }
    jobId->store(submission.job->id());
    std::shared_ptr<SearchJob> previous;
    {
        std::lock_guard lock(mutex_);
        if (closed_) {
            previous = submission.job;  // closed meanwhile: stop it at once
        } else {
            auto& slot = searches_[key];
            previous = std::move(slot);  // the same id again: the newer search replaces it
            slot = submission.job;
        }
    }
    if (previous) previous->stop();
}

void WsConnection::stop(const nlohmann::json& message) {
    const nlohmann::json id = message.contains("id") ? message.at("id") : nlohmann::json();
    std::vector<std::shared_ptr<SearchJob>> jobs;
    std::vector<std::shared_ptr<ReviewRun>> reviews;
    {
        std::lock_guard lock(mutex_);
        if (id.is_null()) {
            for (auto& [key, job] : searches_) jobs.push_back(job);
            for (auto& [key, review] : reviews_) reviews.push_back(review.first);
        } else {
            if (auto it = searches_.find(id.dump()); it != searches_.end())
                jobs.push_back(it->second);
            if (auto it = reviews_.find(id.dump()); it != reviews_.end())
                reviews.push_back(it->second.first);
        }
    }
    if (jobs.empty() && reviews.empty())
        return sendError(id, errors::not_found, "no running search or review with this id");
    // Each stopped search still sends its bestmove, each stopped review its Review.
    for (auto& job : jobs) job->stop();
    for (auto& review : reviews) review->stop();
}

void WsConnection::review(const nlohmann::json& message) {
    const nlohmann::json id = message.contains("id") ? message.at("id") : nlohmann::json();
    ReviewService service(context_);
    ReviewResult result;
    if (message.contains("gameId")) {
        if (!message.at("gameId").is_string())
            return sendError(id, errors::bad_request, "'gameId' must be a string");
        result = service.startForGame(message.at("gameId").get<std::string>(), message, client_,
                                      {"type", "id", "gameId"});
    } else {
        result = service.startPasted(message, client_, {"type", "id"});
    }
    if (auto* error = std::get_if<ApiError>(&result)) {
        nlohmann::json reply =
            withId({{"type", "error"}, {"code", error->code}, {"message", error->message}}, id);
        if (error->retryAfterSeconds) reply["retryAfter"] = *error->retryAfterSeconds;
        return send(reply);
    }
    const ReviewHandle& handle = std::get<ReviewHandle>(result);
    if (!handle.run) return send(withId({{"type", "review"}, {"review", handle.review}}, id));
    const std::string key = id.dump();
    const std::shared_ptr<ReviewRun> run = handle.run;
    // Registered before it listens, so a stop with this id finds it from its first message.
    std::pair<std::shared_ptr<ReviewRun>, std::uint64_t> previous;
    {
        std::lock_guard lock(mutex_);
        if (closed_) return;
        auto& slot = reviews_[key];
        previous = std::move(slot);
        slot = {run, 0};
    }
    // The same id again: this connection follows the newer review only.
    if (previous.first) previous.first->unlisten(previous.second);
    std::weak_ptr<WsConnection> weak = weak_from_this();
    const ReviewRun* identity = run.get();  // not owned: the run holds this listener
    // The first message is the Review now (listen sends it), then progress, then the Review.
    const std::uint64_t token =
        run->listen([weak, id, key, identity](const nlohmann::json& line, bool final) {
            auto self = weak.lock();
            if (!self) return;
            self->send(withId(line, id));
            if (!final) return;
            std::lock_guard lock(self->mutex_);
            if (auto it = self->reviews_.find(key);
                it != self->reviews_.end() && it->second.first.get() == identity) {
                self->reviews_.erase(it);
            }
        });
    if (token == 0) return;
    bool kept = false;
    {
        std::lock_guard lock(mutex_);
        if (auto it = reviews_.find(key); it != reviews_.end() && it->second.first == run) {
            it->second.second = token;
            kept = true;
        }
    }
    // Closed, or replaced by a newer review with the same id, meanwhile.
    if (!kept) run->unlisten(token);
}

void WsConnection::subscribe(const nlohmann::json& message) {
    const nlohmann::json id = message.contains("id") ? message.at("id") : nlohmann::json();
    if (!message.contains("gameId") || !message.at("gameId").is_string()) {
        return sendError(id, errors::bad_request, "'gameId' (a string) is required");
    }
    const std::string gameId = message.at("gameId").get<std::string>();
    {
        std::lock_guard lock(mutex_);
        if (subscriptions_.count(gameId)) {
            return sendError(id, errors::bad_request, "already subscribed to this game");
        }
    }
    auto lease = context_.quotas.tryAcquire(Quota::Subscriptions, client_.address);
    if (!lease) {
        context_.metrics.quotaRefused(quotaName(Quota::Subscriptions));
        nlohmann::json reply =
            withId({{"type", "error"},
                    {"code", quotaErrorCode(Quota::Subscriptions)},
                    {"message", "this client holds " +
                                    std::to_string(context_.config.perClientSubscriptions) +
                                    " game subscriptions already (see docs/security.md)"},
                    {"retryAfter", context_.config.retryAfterSeconds}},
                   id);
        return send(reply);
    }
    std::weak_ptr<WsConnection> weak = weak_from_this();
    // A player's subscription (its token in "token") makes its side present (games/presence.h);
    // anyone else watches (games/spectators.h).
    std::optional<std::string> token;
    if (message.contains("token") && message.at("token").is_string())
        token = message.at("token").get<std::string>();
    auto opened =
        openGameFeed(context_, gameId, token, [weak](std::string text, CoalesceKey coalesceKey) {
            if (auto self = weak.lock()) self->outbox_->send(std::move(text), coalesceKey);
        });
    if (auto* error = std::get_if<ApiError>(&opened))
        return sendError(id, error->code, error->message);
    auto& [feed, subscription, game, presence] = std::get<OpenedFeed>(opened);
    bool keep = false;
    {
        std::lock_guard lock(mutex_);
        if (!closed_ && !subscriptions_.count(gameId)) {
            subscriptions_[gameId] = subscription;
            subscriptionLeases_[gameId] = std::move(lease);
            presenceLeases_[gameId] = std::move(presence);
            keep = true;
        }
    }
    if (!keep) {
        context_.bus->unsubscribe(subscription);
        return;
    }
    // No end: a subscription outlives the end of its game (a takeback may reopen it).
    feed->start(wireText(withId(gameFullMessage(game, context_.clock.nowMs()), id)), game.version,
                false);
}

void WsConnection::unsubscribe(const nlohmann::json& message) {
    const nlohmann::json id = message.contains("id") ? message.at("id") : nlohmann::json();
    if (!message.contains("gameId") || !message.at("gameId").is_string()) {
        return sendError(id, errors::bad_request, "'gameId' (a string) is required");
    }
    GameEventBus::SubscriptionId subscription = 0;
    {
        std::lock_guard lock(mutex_);
        auto it = subscriptions_.find(message.at("gameId").get<std::string>());
        if (it != subscriptions_.end()) {
            subscription = it->second;
            subscriptionLeases_.erase(it->first);
            presenceLeases_.erase(it->first);
            subscriptions_.erase(it);
        }
    }
    if (!subscription) return sendError(id, errors::not_found, "not subscribed to this game");
    context_.bus->unsubscribe(subscription);
    send(withId({{"type", "unsubscribed"}, {"gameId", message.at("gameId")}}, id));
}

void WsConnection::move(const nlohmann::json& message) {
    const nlohmann::json id = message.contains("id") ? message.at("id") : nlohmann::json();
    if (!message.contains("gameId") || !message.at("gameId").is_string())
        return sendError(id, errors::bad_request, "'gameId' (a string) is required");
    std::optional<std::string> token;
    if (message.contains("token")) {
        if (!message.at("token").is_string())
            return sendError(id, errors::bad_request, "'token' must be a string");
        token = message.at("token").get<std::string>();
    }
    auto parsed = parseMoveRequest(message, {"type", "id", "gameId", "token"});
    if (auto* error = std::get_if<ApiError>(&parsed))
        return sendError(id, error->code, error->message);
    const MoveRequest& move = std::get<MoveRequest>(parsed);
    std::weak_ptr<WsConnection> weak = weak_from_this();
    GameService service(context_);
    service.move(message.at("gameId").get<std::string>(), token, move.move, move.version, move.wait,
                 client_, [weak, id](GameOutcome outcome) {
                     auto self = weak.lock();
                     if (!self) return;
                     if (auto* error = std::get_if<ApiError>(&outcome)) {
                         return self->sendError(id, error->code, error->message);
                     }
                     const GameReply& reply = std::get<GameReply>(outcome);
                     nlohmann::json answer = {
                         {"type", "game"},
                         {"game", gameJson(reply.game, self->context_.clock.nowMs())}};
                     if (!reply.engineMove.is_null()) answer["engineMove"] = reply.engineMove;
                     if (reply.enginePending) answer["enginePending"] = true;
                     self->send(withId(std::move(answer), id));
                 });
}

void WsConnection::onClose() {
    std::map<std::string, std::shared_ptr<SearchJob>> searches;
    std::map<std::string, GameEventBus::SubscriptionId> subscriptions;
    std::map<std::string, std::shared_ptr<ClientQuotas::Lease>> leases;
    std::map<std::string, PresenceTracker::Lease> presence;
    std::map<std::string, std::pair<std::shared_ptr<ReviewRun>, std::uint64_t>> reviews;
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
        reviews.swap(reviews_);
        searches.swap(searches_);
        subscriptions.swap(subscriptions_);
        leases.swap(subscriptionLeases_);
        presence.swap(presenceLeases_);
    }
    for (auto& [key, job] : searches) job->stop();
    for (auto& [gameId, subscription] : subscriptions) context_.bus->unsubscribe(subscription);
    // A review goes on without this connection (it is stored when it ends).
    for (auto& [key, review] : reviews) review.first->unlisten(review.second);
}

}  // namespace outpost::server
