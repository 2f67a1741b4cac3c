// Job > Cut Over…: the wizard on the harness's brokers. A dry run shows the
// drift report (a fence on a source without an authorizer is a blocker) and
// records nothing; a cutover runs the window's own job through every step,
// shows the report, and leaves the job stopped; Roll Back forgets it.

#include "../integration/verify_support.h"

#include "engine/cutover/CutoverState.h"
#include "engine/mirror/MirrorJob.h"
#include "model/session/JobSession.h"
#include "model/session/MonitoredJob.h"
#include "ui/dialogs/CutoverDialog.h"
#include "ui/window/MainWindow.h"

#include <QAction>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTreeWidget>

using namespace md;
using namespace md::test;

namespace {

MirrorJobSpec cutoverSpec(const QString &topic)
{
    MirrorJobSpec spec = makeSpec(topic);
    spec.name = topic; // its own group, map and cutover record
    return spec;
}

// `each` records on each of `partitions`.
QList<TestRecord> records(int partitions, int each)
{
    QList<TestRecord> out;
    for (int p = 0; p < partitions; ++p)
        for (int i = 0; i < each; ++i) {
            TestRecord r;
            r.partition = p;
            r.value = QByteArray("v") + QByteArray::number(p) + '.' + QByteArray::number(i);
            out.append(r);
        }
    return out;
}

QStringList column(const QTreeWidget *tree, int c)
{
    QStringList out;
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        out << tree->topLevelItem(i)->text(c);
    return out;
}

} // namespace

class TestCutoverDialog final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target")); }

    void dryRunShowsTheBlockersAndWritesNothing()
    {
        const QString topic = uniqueName(QStringLiteral("cutover-gui-dry"));
        makePair(topic, 2, records(2, 25), {}, false);
        int started = 0;
        CutoverDialog dlg(cutoverSpec(topic), [&](QString *) -> MirrorJob * {
            ++started;
            return nullptr;
        });
        dlg.setAttribute(Qt::WA_DeleteOnClose, false);
        dlg.show();
        dlg.setFencePrincipals(QStringLiteral("alice"));
        QSignalSpy finished(&dlg, &CutoverDialog::finished);
        dlg.dryRunButton()->click();
        QVERIFY(dlg.isBusy());
        QVERIFY(!dlg.cutoverButton()->isEnabled());
        QVERIFY(finished.wait(60000));
        QCOMPARE(dlg.outcome().exitCode, 1);
        const QStringList severities = column(dlg.findings(), 0);
        const QStringList texts = column(dlg.findings(), 2);
        QVERIFY2(severities.contains(QStringLiteral("BLOCKER")), qPrintable(texts.join(QLatin1Char('\n'))));
        QVERIFY2(texts.join(QLatin1Char('\n')).contains(QLatin1String("no authorizer")),
                 qPrintable(texts.join(QLatin1Char('\n'))));
        QVERIFY2(dlg.statusText().contains(QLatin1String("blocker")), qPrintable(dlg.statusText()));
        QCOMPARE(started, 0); // a dry run never starts the job
        QVERIFY(dlg.cutoverButton()->isEnabled());
        QString error;
        QVERIFY(partitionCount(targetBootstrap(), cutoverRecordsTopicOf(cutoverSpec(topic)), &error) <=
                0); // nothing recorded
    }

    void cutoverRunsTheStepsAndShowsTheReport()
    {
        const QString topic = uniqueName(QStringLiteral("cutover-gui"));
        makePair(topic, 2, records(2, 50), {}, false);
        MainWindow window;
        window.show();
        QVERIFY(!window.cutoverAction()->isEnabled()); // no job selected
        window.addJob(new MirrorJob(cutoverSpec(topic)));
        QVERIFY(window.cutoverAction()->isEnabled());
        CutoverDialog *dlg = window.cutoverSelectedJob();
        QVERIFY(dlg);
        dlg->setAttribute(Qt::WA_DeleteOnClose, false);
        dlg->setSettleSeconds(1);
        QStringList asked;
        dlg->setConfirmHook([&](const QString &text) {
            asked << text;
            return true;
        });
        QSignalSpy finished(dlg, &CutoverDialog::finished);
        dlg->cutoverButton()->click();
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked.first().contains(QLatin1String("No producer is fenced")), qPrintable(asked.first()));
        QVERIFY(dlg->cancelButton()->isEnabled());
        QVERIFY(finished.wait(120000));
        QVERIFY2(dlg->outcome().exitCode == 0, qPrintable(dlg->outcome().error));
        const QStringList states = column(dlg->steps(), 1);
        QCOMPARE(states.size(), 5);
        for (qsizetype i = 0; i < states.size(); ++i) // groups: none selected, so skipped
            QVERIFY2(states.at(i) == (i == 3 ? QStringLiteral("skipped") : QStringLiteral("done")),
                     qPrintable(states.join(QStringLiteral(", "))));
        const QString report = dlg->report()->toPlainText();
        QVERIFY2(report.contains(QLatin1String("records never copied: 0")), qPrintable(report));
        QVERIFY2(report.contains(QLatin1String("2 partitions, 100 records, 0 not copied")), qPrintable(report));
        // The window's job did the copying and was stopped by the cutover.
        MirrorJob *job = window.session()->at(0)->job();
        QVERIFY(job->hasStarted());
        QTRY_VERIFY_WITH_TIMEOUT(!job->isRunning(), 10000);
        QString error;
        const auto copied = consumeAll(targetBootstrap(), targetName(topic), &error);
        QVERIFY2(copied, qPrintable(error));
        QCOMPARE(copied->size(), 100);

        finished.clear();
        dlg->rollbackButton()->click();
        QVERIFY(finished.wait(60000));
        QVERIFY2(dlg->statusText().contains(QLatin1String("Rolled back")), qPrintable(dlg->statusText()));
        delete dlg;
    }
};

QTEST_MAIN(TestCutoverDialog)
#include "tst_cutoverdialog.moc"
