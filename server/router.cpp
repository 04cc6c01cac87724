#include "router.h"

#include <array>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "errors/error_codes.h"
#include "handlers/analysis_handler.h"
#include "handlers/cached_analysis_handler.h"
#include "handlers/chat_rematch_handlers.h"
#include "handlers/engine_info_handler.h"
#include "handlers/game_handlers.h"
#include "handlers/game_list_handler.h"
#include "handlers/offer_handlers.h"
#include "handlers/review_handlers.h"
#include "handlers/seek_handlers.h"
#include "handlers/service_handlers.h"
#include "handlers/static_handler.h"
#include "http/accept.h"
#include "http/cors.h"
#include "http/header_text.h"
#include "http/json_response.h"
#include "http/query_string.h"

namespace outpost::server {

namespace {

std::vector<std::string> splitPath(std::string_view path) {
    std::vector<std::string> segments;
    std::size_t start = 0;
    while (start < path.size()) {
        if (path[start] == '/') {
            ++start;
            continue;
        }
        std::size_t end = path.find('/', start);
        if (end == std::string_view::npos) end = path.size();
        segments.emplace_back(path.substr(start, end - start));
        start = end;
    }
    return segments;
}

void methodNotAllowed(const Request& request, const std::shared_ptr<ResponseSink>& sink,
                      const char* allow) {
    Response response =
        errorFor(request, http::status::method_not_allowed, errors::method_not_allowed,
                 std::string(request.method_string()) + " is not allowed here; use " + allow);
    response.set(http::field::allow, allow);
    sink->respond(std::move(response));
}

bool isGet(const Request& request) {
    return request.method() == http::verb::get || request.method() == http::verb::head;
}

// Runs a handler that reads or writes the game store on the store executor, never on the I/O
// thread that called the router (a hung Redis or a slow fsync would stall every connection of
// the replica, /healthz included). The route label is known before, so it is returned at once.
// An exception is answered 500 `internal` (and ends a stream that had begun), logged and counted.
template <typename Handler>
void offload(ServerContext& context, Request&& request, const std::shared_ptr<ResponseSink>& sink,
             Handler handler) {
    auto owned = std::make_shared<Request>(std::move(request));
    context.storeWork.post([&context, owned, sink, handler = std::move(handler)] {
        try {
            handler(*owned);
        } catch (const std::exception& error) {
            context.metrics.internalError("http");
            context.logger.log({{"event", "internal_error"},
                                {"where", "http"},
                                {"target", std::string(owned->target())},
                                {"error", error.what()}});
            sink->respond(errorFor(*owned, http::status::internal_server_error, errors::internal,
                                   "internal error; it was logged"));
            sink->endStream();
        }
    });
}

// What a route's handler is given: the request (a handler may move it away), who sent it, where
// to answer, and the path segment that matched the pattern's `{...}` (empty when it has none).
struct RouteCall {
    ServerContext& context;
    Request& request;
    const ClientInfo& client;
    const std::shared_ptr<ResponseSink>& sink;
    const std::string& id;
};

using RouteHandler = void (*)(RouteCall&);

// How a route's pattern meets the path: exactly (the service routes, so "/healthz/" is a static
// file), or segment by segment with empty segments skipped and `{...}` matching any one segment
// (the API).
enum class Match { ExactPath, Segments };

// The media types a route answers with, the server's preferred first: what its Accept
// negotiation offers (errors are JSON whatever the route). Empty: no Accept check.
using MediaTypes = std::span<const std::string_view>;
constexpr std::array<std::string_view, 1> kJsonOnly = {kMediaJson};
constexpr std::array<std::string_view, 1> kNdjsonOnly = {kMediaNdjson};
constexpr std::array<std::string_view, 2> kJsonOrNdjson = {kMediaJson, kMediaNdjson};
constexpr std::array<std::string_view, 1> kYaml = {"application/yaml"};
constexpr std::array<std::string_view, 1> kPgn = {"application/x-chess-pgn"};
constexpr MediaTypes kNoAcceptCheck = {};

// One route: its pattern, which is also its label for metrics and logs; the handler for GET (HEAD
// too) and for POST, nullptr where that method is not allowed (405 with Allow); or one handler for
// every method. `query`: the query parameters its GET takes, comma-separated (an API route
// refuses any other, and its other methods take none). `getTypes` / `postTypes`: what GET (and
// the handler for any method) and POST answer with.
struct Route {
    std::string_view pattern;
    Match match;
    RouteHandler get;
    RouteHandler post;
    RouteHandler any = nullptr;
    std::string_view query = {};
    MediaTypes getTypes = kJsonOnly;
    MediaTypes postTypes = kJsonOnly;
};

void health(RouteCall& call) {
    call.sink->respond(handleHealth(call.request));
}

void ready(RouteCall& call) {
    offload(call.context, std::move(call.request), call.sink,
            [&context = call.context, sink = call.sink](const Request& owned) {
                sink->respond(handleReady(owned, context));
            });
}

void metrics(RouteCall& call) {
    offload(call.context, std::move(call.request), call.sink,
            [&context = call.context, sink = call.sink](const Request& owned) {
                sink->respond(handleMetrics(owned, context));
            });
}

void openApi(RouteCall& call) {
    call.sink->respond(handleOpenApi(call.request));
}

void engineInfo(RouteCall& call) {
    call.sink->respond(handleEngineInfo(call.request, call.context));
}

void startAnalysis(RouteCall& call) {
    handleAnalysis(call.context, call.request, call.client, call.sink);
}

void cachedAnalysis(RouteCall& call) {
    offload(call.context, std::move(call.request), call.sink,
            [&context = call.context, sink = call.sink](const Request& owned) {
                sink->respond(handleCachedAnalysis(context, owned));
            });
}

void webSocket(RouteCall& call) {
    // A WebSocket upgrade never reaches the router (the session hands it over).
    call.sink->respond(errorFor(call.request, http::status::bad_request, errors::bad_request,
                                "this route takes a WebSocket upgrade"));
}

void createGame(RouteCall& call) {
    offload(call.context, std::move(call.request), call.sink,
            [&context = call.context, client = call.client, sink = call.sink](
                const Request& owned) { handleCreateGame(context, owned, client, sink); });
}

void listGames(RouteCall& call) {
    offload(call.context, std::move(call.request), call.sink,
            [&context = call.context, sink = call.sink](const Request& owned) {
                handleListGames(context, owned, sink);
            });
}

template <GameAction action>
void gameAction(RouteCall& call) {
    offload(
        call.context, std::move(call.request), call.sink,
        [&context = call.context, id = call.id, client = call.client, sink = call.sink](
            const Request& owned) { handleGameAction(context, action, id, owned, client, sink); });
}

// Offers and endings between people (games/offers.h).
template <OfferAction action>
void offerAction(RouteCall& call) {
    offload(
        call.context, std::move(call.request), call.sink,
        [&context = call.context, id = call.id, client = call.client, sink = call.sink](
            const Request& owned) { handleOfferAction(context, action, id, owned, client, sink); });
}

void startReview(RouteCall& call) {
    offload(call.context, std::move(call.request), call.sink,
            [&context = call.context, client = call.client, sink = call.sink](
                const Request& owned) { handleStartReview(context, owned, client, sink); });
}

template <ReviewAction action>
void reviewAction(RouteCall& call) {
    offload(call.context, std::move(call.request), call.sink,
            [&context = call.context, id = call.id, sink = call.sink](const Request& owned) {
                handleReviewAction(context, action, id, owned, sink);
            });
}

// Any viewer may start a review of a game or read it: no token.
void startGameReview(RouteCall& call) {
    offload(call.context, std::move(call.request), call.sink,
            [&context = call.context, id = call.id, client = call.client, sink = call.sink](
                const Request& owned) { handleStartGameReview(context, id, owned, client, sink); });
}

void getGameReview(RouteCall& call) {
    offload(call.context, std::move(call.request), call.sink,
            [&context = call.context, id = call.id, sink = call.sink](const Request& owned) {
                handleGetGameReview(context, id, owned, sink);
            });
}

// Chat between the players (games/chat.h) and rematch (games/rematch.h).
void postChat(RouteCall& call) {
    offload(call.context, std::move(call.request), call.sink,
            [&context = call.context, id = call.id, sink = call.sink](const Request& owned) {
                handlePostChat(context, id, owned, sink);
            });
}

void getChat(RouteCall& call) {
    offload(call.context, std::move(call.request), call.sink,
            [&context = call.context, id = call.id, sink = call.sink](const Request& owned) {
                handleGetChat(context, id, owned, sink);
            });
}

template <bool yes>
void rematch(RouteCall& call) {
    offload(call.context, std::move(call.request), call.sink,
            [&context = call.context, id = call.id, client = call.client, sink = call.sink](
                const Request& owned) { handleRematch(context, yes, id, owned, client, sink); });
}

// The lobby (lobby/seek_service.h).
void createSeek(RouteCall& call) {
    offload(call.context, std::move(call.request), call.sink,
            [&context = call.context, client = call.client, sink = call.sink](
                const Request& owned) { handleCreateSeek(context, owned, client, sink); });
}

void listSeeks(RouteCall& call) {
    offload(call.context, std::move(call.request), call.sink,
            [&context = call.context, sink = call.sink](const Request& owned) {
                handleListSeeks(context, owned, sink);
            });
}

template <SeekAction action>
void seekAction(RouteCall& call) {
    offload(
        call.context, std::move(call.request), call.sink,
        [&context = call.context, id = call.id, client = call.client, sink = call.sink](
            const Request& owned) { handleSeekAction(context, action, id, owned, client, sink); });
}

// GET reads a seek, DELETE cancels it.
void seekItem(RouteCall& call) {
    if (isGet(call.request)) return seekAction<SeekAction::Get>(call);
    if (call.request.method() == http::verb::delete_) return seekAction<SeekAction::Cancel>(call);
    methodNotAllowed(call.request, call.sink, "GET, DELETE");
}

constexpr auto kRoutes = std::to_array<Route>({
    // The probes and /metrics answer whatever Accept says, as they ignore the query: monitors,
    // load balancers and scrapers send what they send (a scraper asking for JSON still gets the
    // text format, which is all it can read anyway).
    {"/healthz", Match::ExactPath, health, nullptr, nullptr, "", kNoAcceptCheck},
    {"/readyz", Match::ExactPath, ready, nullptr, nullptr, "", kNoAcceptCheck},
    {"/metrics", Match::ExactPath, metrics, nullptr, nullptr, "", kNoAcceptCheck},
    {"/api/v1/openapi.yaml", Match::Segments, openApi, nullptr, nullptr, "", kYaml},
    {"/api/v1/engine", Match::Segments, engineInfo, nullptr},
    {"/api/v1/analysis", Match::Segments, cachedAnalysis, startAnalysis, nullptr, "fen,multipv",
     kJsonOnly, kJsonOrNdjson},
    {"/api/v1/ws", Match::Segments, nullptr, nullptr, webSocket, "", kNoAcceptCheck},
    {"/api/v1/games", Match::Segments, listGames, createGame, nullptr, "ids"},
    {"/api/v1/games/{id}", Match::Segments, gameAction<GameAction::Get>, nullptr},
    {"/api/v1/review", Match::Segments, nullptr, startReview},
    {"/api/v1/reviews/{reviewId}", Match::Segments, reviewAction<ReviewAction::Get>, nullptr},
    {"/api/v1/reviews/{reviewId}/stream", Match::Segments, reviewAction<ReviewAction::Stream>,
     nullptr, nullptr, "", kNdjsonOnly},
    {"/api/v1/reviews/{reviewId}/stop", Match::Segments, nullptr, reviewAction<ReviewAction::Stop>},
    {"/api/v1/games/{id}/review", Match::Segments, getGameReview, startGameReview},
    {"/api/v1/games/{id}/draw/yes", Match::Segments, nullptr, offerAction<OfferAction::DrawYes>},
    {"/api/v1/games/{id}/draw/no", Match::Segments, nullptr, offerAction<OfferAction::DrawNo>},
    {"/api/v1/games/{id}/takeback/yes", Match::Segments, nullptr,
     offerAction<OfferAction::TakebackYes>},
    {"/api/v1/games/{id}/takeback/no", Match::Segments, nullptr,
     offerAction<OfferAction::TakebackNo>},
    {"/api/v1/games/{id}/abort", Match::Segments, nullptr, offerAction<OfferAction::Abort>},
    {"/api/v1/games/{id}/claim-victory", Match::Segments, nullptr,
     offerAction<OfferAction::ClaimVictory>},
    {"/api/v1/games/{id}/claim-draw", Match::Segments, nullptr,
     offerAction<OfferAction::ClaimDraw>},
    {"/api/v1/games/{id}/moves", Match::Segments, nullptr, gameAction<GameAction::Move>},
    {"/api/v1/games/{id}/engine-move", Match::Segments, nullptr,
     gameAction<GameAction::EngineMove>},
    {"/api/v1/games/{id}/takeback", Match::Segments, nullptr, gameAction<GameAction::Takeback>},
    {"/api/v1/games/{id}/resign", Match::Segments, nullptr, gameAction<GameAction::Resign>},
    {"/api/v1/games/{id}/pgn", Match::Segments, gameAction<GameAction::Pgn>, nullptr, nullptr,
     "review", kPgn},
    {"/api/v1/games/{id}/stream", Match::Segments, gameAction<GameAction::Stream>, nullptr, nullptr,
     "", kNdjsonOnly},
    {"/api/v1/games/{id}/chat", Match::Segments, getChat, postChat},
    {"/api/v1/games/{id}/rematch/yes", Match::Segments, nullptr, rematch<true>},
    {"/api/v1/games/{id}/rematch/no", Match::Segments, nullptr, rematch<false>},
    {"/api/v1/seeks", Match::Segments, listSeeks, createSeek},
    {"/api/v1/seeks/{seekId}", Match::Segments, nullptr, nullptr, seekItem},
    {"/api/v1/seeks/{seekId}/accept", Match::Segments, nullptr, seekAction<SeekAction::Accept>},
    {"/api/v1/seeks/{seekId}/stream", Match::Segments, seekAction<SeekAction::Stream>, nullptr,
     nullptr, "", kNdjsonOnly},
});

// Whether `segments` (the path's) fit `pattern` one for one; `id` gets the segment that met a
// `{...}`.
bool matchesSegments(std::string_view pattern, const std::vector<std::string>& segments,
                     std::string& id) {
    id.clear();
    std::size_t index = 0;
    std::size_t start = 1;  // past the pattern's leading '/'
    while (start <= pattern.size()) {
        std::size_t end = pattern.find('/', start);
        if (end == std::string_view::npos) end = pattern.size();
        const std::string_view part = pattern.substr(start, end - start);
        if (index == segments.size()) return false;
        if (part.starts_with('{'))
            id = segments[index];
        else if (segments[index] != part)
            return false;
        ++index;
        start = end + 1;
    }
    return index == segments.size();
}

// Whether `name` is one of `list`'s comma-separated names.
bool listed(std::string_view list, std::string_view name) {
    bool found = false;
    forEachListItem(list, [&](std::string_view item) { found = found || item == name; });
    return found;
}

// An API route takes the query parameters it documents and no other, as its bodies take no
// unknown field: a misspelt parameter is refused (400 bad_request), not silently ignored.
std::optional<Response> refusedQuery(const Route& route, const Request& request, bool get) {
    if (route.match != Match::Segments) return std::nullopt;
    const std::string_view target(request.target().data(), request.target().size());
    const std::optional<QueryParameters> parameters = queryParameters(target);
    if (!parameters) {
        return errorFor(request, http::status::bad_request, errors::bad_request,
                        "malformed percent-encoding in the query");
    }
    const std::string_view taken = get ? route.query : std::string_view();
    for (const auto& [name, value] : *parameters) {
        if (listed(taken, name) || (get && isCacheBuster(name))) continue;
        return errorFor(request, http::status::bad_request, errors::bad_request,
                        "unknown query parameter " + quotedInput(name) +
                            (taken.empty() ? "; this route takes none"
                                           : "; this route takes " + std::string(taken)));
    }
    return std::nullopt;
}

// 406 when the request's Accept gives every type the route answers with quality 0 (RFC 9110
// 12.5.1); the answer is a JSON error, as every error is.
std::optional<Response> notAcceptable(MediaTypes types, const Request& request) {
    if (types.empty()) return std::nullopt;
    const std::string accept = acceptList(request);
    if (negotiateMediaType(accept, types)) return std::nullopt;
    std::string offered;
    for (std::string_view type : types)
        offered += (offered.empty() ? "" : " or ") + std::string(type);
    return errorFor(request, http::status::not_acceptable, errors::not_acceptable,
                    "this route answers with " + offered + ", which Accept " + quotedInput(accept) +
                        " refuses");
}

void dispatch(const Route& route, RouteCall& call) {
    const Request& request = call.request;
    const bool get = isGet(request);
    const RouteHandler handler = route.any                                            ? route.any
                                 : route.get && get                                   ? route.get
                                 : route.post && request.method() == http::verb::post ? route.post
                                                                                      : nullptr;
    if (!handler) {
        return methodNotAllowed(request, call.sink,
                                route.get && route.post ? "GET, POST"
                                : route.get             ? "GET"
                                                        : "POST");
    }
    if (auto refused = refusedQuery(route, request, get)) return call.sink->respond(*refused);
    const bool post = !route.any && request.method() == http::verb::post;
    if (auto refused = notAcceptable(post ? route.postTypes : route.getTypes, request))
        return call.sink->respond(*refused);
    handler(call);
}

}  // namespace

std::string handleHttp(ServerContext& context, Request&& request, const ClientInfo& client,
                       const std::shared_ptr<ResponseSink>& sink) {
    const std::string_view target(request.target().data(), request.target().size());
    const std::string_view path = target.substr(0, target.find_first_of("?#"));

    if (request.method() == http::verb::options) {
        sink->respond(preflightResponse(request, context.config.corsOrigins));
        return "preflight";
    }

    const std::vector<std::string> segments = splitPath(path);
    const bool api = segments.size() >= 2 && segments[0] == "api" && segments[1] == "v1";
    std::string id;
    for (const Route& route : kRoutes) {
        const bool matched = route.match == Match::ExactPath
                                 ? path == route.pattern
                                 : api && matchesSegments(route.pattern, segments, id);
        if (!matched) continue;
        RouteCall call{context, request, client, sink, id};
        dispatch(route, call);
        return std::string(route.pattern);
    }
    if (api) {
        sink->respond(errorFor(request, http::status::not_found, errors::not_found,
                               "no route " + quotedInput(path)));
        return "unknown";
    }

    if (!isGet(request)) {
        methodNotAllowed(request, sink, "GET");
        return "static";
    }
    // From the in-memory table, here on the I/O thread: never waits behind the store's work.
    sendStaticAnswer(handleStaticFile(request, context.staticFiles), *sink);
    return "static";
}

}  // namespace outpost::server
