// The OpenAPI document (api/openapi.yaml), embedded at build time.
#pragma once

#include <string_view>

namespace outpost::api {

std::string_view openApiDocument();

}  // namespace outpost::api
