#pragma once

#include <cstring>
#include <string_view>

namespace md {

// Whether a rebalance callback must answer incrementally (cooperative) or
// with a whole assignment (eager). librdkafka's rd_kafka_rebalance_protocol()
// returns NULL once the consumer's group is terminating, and "NONE" before
// the first join, yet a callback can still arrive then: an assignment or a
// revoke reaching a consumer that is closing (seen in CI: several instances
// that caught up together and exited together; strcmp on the NULL killed
// one). Then the protocol is the one last reported, or the configured one.
inline bool rebalanceIsCooperative(const char *reported, bool lastKnown)
{
    if (!reported || std::strcmp(reported, "NONE") == 0)
        return lastKnown;
    return std::strcmp(reported, "COOPERATIVE") == 0;
}

// The protocol a consumer's configuration asks for: KIP-848's "consumer"
// group protocol is always incremental; the classic one is cooperative only
// with a cooperative assignor (librdkafka refuses to mix the two kinds).
inline bool configuredCooperative(std::string_view assignmentStrategy, std::string_view groupProtocol)
{
    if (groupProtocol == "consumer")
        return true;
    return assignmentStrategy.find("cooperative") != std::string_view::npos;
}

} // namespace md
