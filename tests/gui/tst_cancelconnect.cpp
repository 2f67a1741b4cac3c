// Cancel while the first connection hangs, offscreen and without brokers: a
// "cluster" that accepts connections and never answers (a listening socket
// nobody reads: a black hole) or a closed port. Verify's, the copy dialog's
// and Compare's Cancel answer at once (within 200 ms), the view can go right after, and
// the background task ends by itself well before its connection timeout,
// finding no dialog. The probe's cancel flag is checked on probeCluster itself.
#include "LocalPorts.h"
#include "engine/admin/ClusterProbe.h"
#include "engine/core/Tasks.h"
#include "engine/verify/VerifyJob.h"
#include "ui/dialogs/CopyMessagesDialog.h"
#include "ui/dialogs/FailoverDialog.h"
#include "ui/dialogs/VerifyDialog.h"
#include "ui/job/CompareView.h"

#include <QElapsedTimer>
#include <QPushButton>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>
#include <QThreadPool>
#include <QToolButton>

#include <atomic>
#include <memory>

using md::test::closedPort;
using namespace md;

namespace {

// The dialog answers Cancel from the UI thread, not when the connection ends
// (15 s, 30 s): well within this even while CI's brokers start beside it
// (273 ms seen once under ctest -j3 with a 200 ms bound; 0-1 ms alone).
constexpr qint64 kAnswerMs = 1000;
// Far below the timeouts a hanging connection would otherwise hold a task for (15 s, 30 s).
constexpr int kTaskEndsMs = 4000;

// A listening socket whose connections are accepted by the kernel and never read:
// librdkafka connects, sends its ApiVersions request and waits for an answer that never comes.
struct BlackHole {
    QTcpServer server;
    BlackHole() { server.listen(QHostAddress::LocalHost); }
    QString bootstrap() const { return QStringLiteral("127.0.0.1:%1").arg(server.serverPort()); }
};

MirrorJobSpec specFor(const QString &bootstrap)
{
    MirrorJobSpec spec;
    spec.name = QStringLiteral("cancel test");
    spec.source.bootstrap = bootstrap;
    spec.source.alias = QStringLiteral("src");
    spec.target.bootstrap = bootstrap;
    spec.target.alias = QStringLiteral("dst");
    spec.include = {QStringLiteral("orders")};
    return spec;
}

// Waits (with the event loop running) until no task of the pool runs; the time it took.
qint64 waitForTasks(int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (taskPool()->activeThreadCount() > 0 && clock.elapsed() < timeoutMs)
        QTest::qWait(20);
    return clock.elapsed();
}

} // namespace

class TestCancelConnect final : public QObject {
    Q_OBJECT

    std::unique_ptr<BlackHole> m_hole;

private Q_SLOTS:
    void initTestCase()
    {
        m_hole = std::make_unique<BlackHole>();
        QVERIFY(m_hole->server.isListening());
    }

    void probeHonoursTheCancelFlag()
    {
        std::atomic_bool cancel = false;
        QElapsedTimer clock;
        clock.start();
        QFuture<ClusterProbeResult> probe = runTask([&] {
            ClusterConfig c;
            c.bootstrap = m_hole->bootstrap();
            return probeCluster(c, 15000, &cancel);
        });
        QTest::qWait(300);
        QVERIFY(!probe.isFinished()); // the black hole holds it
        const qint64 cancelledAt = clock.elapsed();
        cancel = true;
        const ClusterProbeResult r = probe.result();
        const qint64 took = clock.elapsed() - cancelledAt;
        QVERIFY(!r.reachable);
        qInfo("probe: returned %lld ms after the flag", took);
        QVERIFY2(took < 1500, qPrintable(QStringLiteral("%1 ms").arg(took)));
    }

    void verifyCancelAnswersAtOnce_data()
    {
        QTest::addColumn<bool>("blackHole");
        QTest::newRow("black hole") << true;
        QTest::newRow("closed port") << false;
    }

    void verifyCancelAnswersAtOnce()
    {
        QFETCH(bool, blackHole);
        auto *dlg = new VerifyDialog(specFor(blackHole ? m_hole->bootstrap() : closedPort()));
        dlg->show(); // default options: a 15 s connection timeout
        QSignalSpy finished(dlg, &VerifyDialog::finished);
        QTest::mouseClick(dlg->startButton(), Qt::LeftButton);
        QVERIFY(dlg->isRunning());
        QTest::qWait(300);
        if (!blackHole && !dlg->isRunning()) {
            // A refused connection may end the run by itself first: then it says why, and promptly.
            QCOMPARE(finished.size(), 1);
            QVERIFY2(!dlg->report().completed && !dlg->report().cancelled, qPrintable(dlg->report().error));
            delete dlg;
            return;
        }
        QVERIFY(dlg->cancelButton()->isEnabled());
        QElapsedTimer clock;
        clock.start();
        QTest::mouseClick(dlg->cancelButton(), Qt::LeftButton);
        if (finished.isEmpty())
            QVERIFY(finished.wait(int(kAnswerMs)));
        const qint64 took = clock.elapsed();
        qInfo("verify: answered %lld ms after Cancel", took);
        QVERIFY2(took < kAnswerMs, qPrintable(QStringLiteral("%1 ms").arg(took)));
        QVERIFY(!dlg->isRunning());
        QVERIFY(dlg->report().cancelled);
        QVERIFY(dlg->startButton()->isEnabled());
        QVERIFY(!dlg->cancelButton()->isEnabled());
        QVERIFY2(dlg->statusText().contains(QStringLiteral("Cancelled")), qPrintable(dlg->statusText()));
        // The dialog goes at once; the task finds it gone and ends by itself, soon.
        delete dlg;
        const qint64 ended = waitForTasks(20000);
        qInfo("verify: the task ended %lld ms after the dialog went", ended);
        QVERIFY2(ended < kTaskEndsMs, qPrintable(QStringLiteral("%1 ms").arg(ended)));
    }

    void verifyStartAgainAfterCancel()
    {
        // The first run's late answer must not end the second.
        VerifyDialog dlg(specFor(m_hole->bootstrap()));
        QSignalSpy finished(&dlg, &VerifyDialog::finished);
        dlg.start();
        QTest::qWait(200);
        dlg.cancel();
        QCOMPARE(finished.size(), 1);
        dlg.start();
        QVERIFY(dlg.isRunning());
        QTest::qWait(2500); // the first run's task ends meanwhile
        QVERIFY(dlg.isRunning());
        QCOMPARE(finished.size(), 1);
        dlg.cancel();
        QCOMPARE(finished.size(), 2);
        waitForTasks(20000);
    }

    void compareCancelAnswersAtOnce()
    {
        auto *view = new CompareView(specFor(m_hole->bootstrap()));
        view->show();
        QSignalSpy refreshed(view, &CompareView::refreshed);
        QVERIFY(view->isBusy());
        auto *cancel = view->findChild<QToolButton *>(QStringLiteral("cancelRefresh"));
        QVERIFY(cancel);
        QTest::qWait(300);
        QVERIFY(view->isBusy()); // the black hole holds it (a 10 s timeout per step)
        QVERIFY(cancel->isVisible());
        QElapsedTimer clock;
        clock.start();
        QTest::mouseClick(cancel, Qt::LeftButton);
        const qint64 took = clock.elapsed();
        qInfo("compare: answered %lld ms after Cancel", took);
        QCOMPARE(refreshed.size(), 1);
        QVERIFY(!view->isBusy());
        QVERIFY(!cancel->isVisible());
        QVERIFY2(view->summaryText().startsWith(QStringLiteral("Cancelled")), qPrintable(view->summaryText()));
        // Refresh again: the first fetch's late answer does not end the second.
        view->refresh();
        QVERIFY(view->isBusy());
        QTest::qWait(2000);
        QVERIFY(view->isBusy());
        QCOMPARE(refreshed.size(), 1);
        delete view; // cancels the second
        const qint64 ended = waitForTasks(40000);
        qInfo("compare: the tasks ended %lld ms after the view went", ended);
        QVERIFY2(ended < kTaskEndsMs, qPrintable(QStringLiteral("%1 ms").arg(ended)));
    }

    void copyCancelAnswersAtOnce()
    {
        CopySpec spec;
        spec.target.bootstrap = m_hole->bootstrap();
        spec.target.alias = QStringLiteral("dst");
        KafkaMessage m;
        m.topic = QStringLiteral("orders");
        m.partition = 0;
        m.offset = 7;
        m.key = QByteArray("k");
        m.value = QByteArray("v");
        spec.messages = {m};
        auto *dlg = new CopyMessagesDialog(spec, {QStringLiteral("orders")});
        dlg->setTargetTopic(QStringLiteral("orders"));
        dlg->show();
        QSignalSpy finished(dlg, &CopyMessagesDialog::copyFinished);
        QVERIFY(dlg->start());
        QVERIFY(dlg->isRunning());
        QTest::qWait(300);
        QVERIFY(dlg->isRunning()); // the black hole holds the connection (30 s timeout)
        QElapsedTimer clock;
        clock.start();
        // Escape (or the Cancel button) while copying cancels; the dialog stays with the result.
        QTest::keyClick(dlg, Qt::Key_Escape);
        if (finished.isEmpty())
            QVERIFY(finished.wait(int(kAnswerMs)));
        const qint64 took = clock.elapsed();
        qInfo("copy: answered %lld ms after Cancel", took);
        QVERIFY2(took < kAnswerMs, qPrintable(QStringLiteral("%1 ms").arg(took)));
        QVERIFY(!dlg->isRunning());
        const auto result = finished.first().first().value<CopyResult>();
        QVERIFY(result.cancelled);
        QCOMPARE(result.copied, 0);
        QVERIFY2(dlg->resultText().contains(QStringLiteral("nothing copied")), qPrintable(dlg->resultText()));
        QVERIFY(dlg->isVisible());
        delete dlg;
        const qint64 ended = waitForTasks(40000);
        qInfo("copy: the task ended %lld ms after the dialog went", ended);
        QVERIFY2(ended < kTaskEndsMs, qPrintable(QStringLiteral("%1 ms").arg(ended)));
    }

    void failoverPreviewCancelAnswersAtOnce()
    {
        MirrorJobSpec spec = specFor(m_hole->bootstrap());
        spec.groupsInclude = {QStringLiteral("billing")};
        auto *dlg = new FailoverDialog(spec);
        dlg->show();
        QSignalSpy finished(dlg, &FailoverDialog::previewFinished);
        QVERIFY(!dlg->cancelPreviewButton()->isVisible());
        dlg->preview();
        QVERIFY(dlg->isBusy());
        QVERIFY(dlg->cancelPreviewButton()->isVisible());
        QTest::qWait(300);
        QVERIFY(dlg->isBusy()); // reading the offset map from the black hole
        QElapsedTimer clock;
        clock.start();
        QTest::mouseClick(dlg->cancelPreviewButton(), Qt::LeftButton);
        const qint64 took = clock.elapsed();
        qInfo("failover preview: answered %lld ms after Cancel", took);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY(!dlg->isBusy());
        QVERIFY(!dlg->cancelPreviewButton()->isVisible());
        QCOMPARE(dlg->statusText(), QStringLiteral("Preview cancelled."));
        // The reading stops after its current step (up to its 20 s timeout): the dialog does not wait.
        delete dlg;
    }
};

QTEST_MAIN(TestCancelConnect)
#include "tst_cancelconnect.moc"
