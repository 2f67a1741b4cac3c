// PlanView's background probe without brokers: a result that a newer edit made
// stale is never shown, and closing the view while a probe runs returns at once
// (nothing waits on the UI thread) and survives the probe's late answer.
#include "engine/core/Tasks.h"
#include "model/profile/JobProfile.h"
#include "ui/job/PlanView.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

using namespace md;

namespace {

// Nothing listens on port 1: every probe ends in "unreachable", after its timeout.
JobProfile unreachableProfile(const QString &sourceAlias)
{
    const QByteArray json = QStringLiteral(R"({"mirrordesk": 1, "name": "plan",
        "source": {"alias": "%1", "bootstrap": "127.0.0.1:1"}, "target": {"alias": "dst", "bootstrap": "127.0.0.1:1"},
        "topics": {"include": ["plan-.*"]}})")
                                .arg(sourceAlias)
                                .toUtf8();
    QList<ProfileIssue> issues;
    return JobProfile::fromJson(json, QStringLiteral("plan.mirrorjob"), &issues);
}

} // namespace

class TstPlanView final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void staleResultIsNotShown()
    {
        PlanView view;
        view.setDebounceMs(0);
        QSignalSpy updated(&view, &PlanView::planUpdated);
        view.setProfile(unreachableProfile(QStringLiteral("first")), {});
        view.refreshNow();
        QCOMPARE(view.state(), PlanView::State::Probing);
        // An edit while the first probe runs: its answer is stale when it comes.
        view.setProfile(unreachableProfile(QStringLiteral("second")), {});
        QVERIFY(updated.wait(60000));
        QCOMPARE(view.state(), PlanView::State::Unreachable);
        QVERIFY2(view.statusText().contains(QStringLiteral("second")), qPrintable(view.statusText()));
        QVERIFY2(!view.statusText().contains(QStringLiteral("first")), qPrintable(view.statusText()));
    }

    void closingWhileProbingDoesNotWait()
    {
        auto *view = new PlanView;
        view->setDebounceMs(0);
        view->setProfile(unreachableProfile(QStringLiteral("closed")), {});
        view->refreshNow();
        QCOMPARE(view->state(), PlanView::State::Probing);
        QElapsedTimer probe;
        probe.start();
        QElapsedTimer closing;
        closing.start();
        delete view;
        const qint64 closeMs = closing.elapsed();
        QVERIFY(taskPool()->waitForDone(60000));
        const qint64 probeMs = probe.elapsed();
        QTest::qWait(50); // the answer's continuation runs, and drops it
        // The probe of a refused port gives up after about a second, counted from
        // refreshNow(), a little before `probe` started: so at least half of that.
        QVERIFY2(probeMs >= 500, qPrintable(QString::number(probeMs)));
        QVERIFY2(closeMs < 200, qPrintable(QString::number(closeMs)));
    }
};

QTEST_MAIN(TstPlanView)
#include "tst_planview.moc"
