// outpost-server: the Outpost game server. See --help, api/openapi.yaml and docs/deployment.md.
#include <iostream>
#include <nlohmann/json.hpp>

#include "config.h"
#include "ops/descriptor_limit.h"
#include "search/engine_searcher.h"
#include "server.h"
#include "store/store_selection.h"

int main(int argc, char** argv) {
    using namespace outpost::server;
    ConfigParseResult parsed = parseConfig(argc, argv);
    if (!parsed.config) {
        (parsed.exitCode == 0 ? std::cout : std::cerr) << parsed.message << "\n";
        return parsed.exitCode;
    }
    const ServerConfig& config = *parsed.config;
    try {
        StoreSelection stores = selectGameStores(storeSettingsFor(config));
        // JSON log lines go to stdout; --log-requests=false drops only the per-request ones.
        std::cout << nlohmann::json{{"event", "store"}, {"store", stores.description}}.dump()
                  << std::endl;
        // Each connection is a descriptor: allow as many as the system lets this process have.
        const DescriptorLimit descriptors = raiseDescriptorLimit();
        std::cout << nlohmann::json{{"event", "descriptors"},
                                    {"softLimit", descriptors.now},
                                    {"hardLimit", descriptors.hard},
                                    {"raisedFrom", descriptors.before}}
                         .dump()
                  << std::endl;
        ServerParts parts;
        parts.log = &std::cout;
        parts.store = stores.store;
        parts.bus = stores.bus;
        parts.analysisCache = stores.analysisCache;
        parts.searchers = makeEngineSearcherFactory(config.hashMb);
        Server server(config, std::move(parts));
        server.handleSignals();
        server.start();
        server.wait();
    } catch (const std::exception& error) {
        std::cerr << "outpost-server: " << error.what() << "\n";
        return 1;
    }
    return 0;
}
