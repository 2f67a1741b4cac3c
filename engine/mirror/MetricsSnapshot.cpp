#include "engine/mirror/MetricsSnapshot.h"

namespace md {

QString jobStateName(JobState s)
{
    switch (s) {
    case JobState::Starting: return QStringLiteral("starting");
    case JobState::Running: return QStringLiteral("running");
    case JobState::Paused: return QStringLiteral("paused");
    case JobState::Stopping: return QStringLiteral("stopping");
    case JobState::Stopped: return QStringLiteral("stopped");
    case JobState::Failed: return QStringLiteral("failed");
    }
    return {};
}

} // namespace md
