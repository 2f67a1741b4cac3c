#include "engine/mirror/OffsetMapPruneRunner.h"

#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/mirror/RunnerEvents.h"
#include "engine/offsetmap/OffsetMapPruner.h"

namespace md {

namespace {

constexpr int kPassTimeoutMs = 60000;
constexpr int kWarnAfterFailures = 3; // in a row: a passing fault is not worth a warning

} // namespace

struct OffsetMapPruneRunner::Shared {
    MirrorJobSpec spec;
    RunnerEvents events{std::chrono::minutes(10)};
    std::unique_ptr<OffsetMapPruner> pruner;
    int failures = 0; // in a row

    void pass()
    {
        const QString topic = offsetMapTopicOf(spec);
        if (!pruner)
            pruner = std::make_unique<OffsetMapPruner>(spec.source, spec.target, topic);
        OffsetMapPruner::Result r;
        QString error;
        if (!pruner->pass(kPassTimeoutMs, &r, &error)) {
            if (++failures >= kWarnAfterFailures)
                events.report(
                    JobEvent::Severity::Warning,
                    QStringLiteral("offset map %1: records below the source's log start not pruned (%2 tries in a "
                                   "row failed; the map is larger meanwhile, never wrong): %3")
                        .arg(topic)
                        .arg(failures)
                        .arg(error));
            return;
        }
        failures = 0;
        if (r.pruned > 0)
            events.report(
                JobEvent::Severity::Info,
                QStringLiteral("offset map %1: %2 records below the source's log start deleted (retention took "
                               "their records); %3 kept")
                    .arg(topic)
                    .arg(r.pruned)
                    .arg(r.keys));
    }
};

OffsetMapPruneRunner::OffsetMapPruneRunner(MirrorJobSpec spec, EventSink events) : m_shared(std::make_shared<Shared>())
{
    m_shared->spec = std::move(spec);
    m_shared->events.setSink(std::move(events));
}

OffsetMapPruneRunner::~OffsetMapPruneRunner()
{
    stop();
    finish(1000);
}

void OffsetMapPruneRunner::start()
{
    m_runner.start(
        std::chrono::milliseconds(std::max(1000, m_shared->spec.mapPruneIntervalMs)),
        PeriodicRunner::First::AfterInterval,
        [s = m_shared] {
            s->pass();
            return true;
        },
        [s = m_shared] {
            // Closed on this thread: whoever lets go of Shared last has none to close.
            if (s->pruner)
                s->pruner->close();
            s->pruner.reset();
        });
}

void OffsetMapPruneRunner::stop()
{
    m_runner.stop();
}

void OffsetMapPruneRunner::finish(int timeoutMs)
{
    if (!m_runner.finish(timeoutMs)) {
        m_shared->events.cutOff(); // still inside a Kafka call: it ends on its own, silently
    }
}

} // namespace md
