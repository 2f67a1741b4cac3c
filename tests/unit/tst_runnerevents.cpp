// The events of a part beside the job (engine/mirror/RunnerEvents.h): what the
// group, ACL and schema syncs and the map pruning tell the operator. A warning
// repeated every round would bury the job's events; one cut off must never
// reach a job that let go of its runner.
#include "engine/mirror/RunnerEvents.h"

#include <QTest>

using namespace md;
using namespace std::chrono_literals;

class TstRunnerEvents final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void reportsReachTheSinkUntilCutOff()
    {
        RunnerEvents events(60s);
        QList<JobEvent> got;
        events.report(JobEvent::Severity::Info, QStringLiteral("before a sink")); // dropped
        events.setSink([&](const JobEvent &e) { got << e; });
        events.report(JobEvent::Severity::Info, QStringLiteral("synced"));
        QCOMPARE(got.size(), 1);
        QCOMPARE(got[0].text, QStringLiteral("synced"));
        QCOMPARE(got[0].severity, JobEvent::Severity::Info);
        QVERIFY(got[0].time.isValid());
        events.cutOff();
        events.report(JobEvent::Severity::Warning, QStringLiteral("after the owner let go"));
        events.warnOnce(QStringLiteral("k"), QStringLiteral("after the owner let go"));
        QCOMPARE(got.size(), 1);
    }

    void aWarningIsDebouncedByKey()
    {
        RunnerEvents events(60s);
        QStringList got;
        events.setSink([&](const JobEvent &e) {
            QCOMPARE(e.severity, JobEvent::Severity::Warning);
            got << e.text;
        });
        const auto t0 = RunnerEvents::Clock::now();
        events.warnOnce(QStringLiteral("map"), QStringLiteral("map 1"), t0);
        events.warnOnce(QStringLiteral("map"), QStringLiteral("map 2"), t0 + 59s);   // within a minute: not again
        events.warnOnce(QStringLiteral("plan"), QStringLiteral("plan 1"), t0 + 59s); // another key: said
        events.warnOnce(QStringLiteral("map"), QStringLiteral("map 3"), t0 + 60s);   // a minute on: said again
        events.warnOnce(QStringLiteral("map"), QStringLiteral("map 4"), t0 + 61s);
        QCOMPARE(got, (QStringList{QStringLiteral("map 1"), QStringLiteral("plan 1"), QStringLiteral("map 3")}));
    }
};

QTEST_GUILESS_MAIN(TstRunnerEvents)
#include "tst_runnerevents.moc"
