// The GUI's "Verify…" of a job (VerifyDialog, VerifyJob) on the harness
// brokers: a copy made with the independent test producer matches on every
// partition; changed, extra and missing records make their partitions
// different, and selecting one shows the source and target records side by
// side ("missing" for a side without one); Cancel on a larger topic answers
// at once. The engine's cancel flag and progress callback are checked on
// Verifier itself, and the table model passes QAbstractItemModelTester.
#include "../integration/verify_support.h"

#include "engine/mirror/MirrorJob.h"
#include "engine/verify/VerifyJob.h"
#include "model/tables/VerifyTableModel.h"
#include "ui/dialogs/VerifyDialog.h"
#include "ui/window/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QtConcurrent>

#include <atomic>

using namespace md;
using namespace md::test;

namespace {

constexpr int kBigPartitions = 6;
constexpr int kBigRecords = 40000; // per partition: a run that lasts well over the time a cancel may take

QList<TestRecord> simpleRecords(int partition, int count, int from = 0)
{
    QList<TestRecord> out;
    for (int i = from; i < from + count; ++i) {
        TestRecord r;
        r.partition = partition;
        r.key = QByteArray("k") + QByteArray::number(i);
        r.value = QByteArray("v") + QByteArray::number(i);
        r.headers = {{QStringLiteral("h"), QByteArray("p") + QByteArray::number(partition)}};
        r.timestamp = 1600000000000LL + i;
        out.append(r);
    }
    return out;
}

PartitionVerdict verdict(const QString &topic, int partition, PartitionVerdict::Status status, qint64 count)
{
    PartitionVerdict v;
    v.sourceTopic = topic;
    v.targetTopic = targetName(topic);
    v.partition = partition;
    v.status = status;
    v.sourceCount = v.targetCount = count;
    if (status == PartitionVerdict::Status::Different)
        v.difference = QStringLiteral("value differs");
    if (status == PartitionVerdict::Status::MatchWithDuplicates)
        v.duplicates = 2;
    return v;
}

QString statusOf(const VerifyTableModel *model, int partition)
{
    for (const VerifyTableModel::Row &r : model->rows()) {
        if (r.partition == partition)
            return VerifyTableModel::statusText(r);
    }
    return QStringLiteral("(no row)");
}

// Selects the table row of `partition` (through the sorting proxy, as a click does).
bool selectPartition(VerifyDialog &dlg, int partition)
{
    const int row = [&] {
        const auto &rows = dlg.model()->rows();
        for (int i = 0; i < rows.size(); ++i) {
            if (rows[i].partition == partition)
                return i;
        }
        return -1;
    }();
    if (row < 0)
        return false;
    auto *proxy = qobject_cast<QSortFilterProxyModel *>(dlg.table()->model());
    dlg.table()->selectRow(proxy->mapFromSource(dlg.model()->index(row, 0)).row());
    return true;
}

} // namespace

class TestVerifyDialog final : public QObject {
    Q_OBJECT

    QString m_bigTopic;

    void makeBigTopic()
    {
        if (!m_bigTopic.isEmpty())
            return;
        const QString topic = uniqueName(QStringLiteral("verify-gui-big"));
        QList<TestRecord> records;
        for (int p = 0; p < kBigPartitions; ++p) {
            for (TestRecord r : simpleRecords(p, kBigRecords)) {
                r.value = QByteArray(200, char('a' + p));
                records.append(r);
            }
        }
        makePair(topic, kBigPartitions, records, records);
        if (!QTest::currentTestFailed())
            m_bigTopic = topic;
    }

private Q_SLOTS:
    void initTestCase() { MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target")); }

    void modelPassesTester()
    {
        VerifyTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(VerifyTableModel::SortRole);
        proxy.sort(VerifyTableModel::ComparedColumn, Qt::DescendingOrder);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

        model.setProgress(QStringLiteral("t"), 0, 0);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(VerifyTableModel::statusText(model.rows()[0]), QStringLiteral("comparing\u2026"));
        model.setProgress(QStringLiteral("t"), 0, 500);
        QCOMPARE(model.index(0, VerifyTableModel::ComparedColumn).data().toString(), QStringLiteral("500"));
        model.setProgress(QStringLiteral("t"), 1, 1500);
        QCOMPARE(proxy.index(0, VerifyTableModel::PartitionColumn).data().toString(), QStringLiteral("1"));
        model.setVerdict(verdict(QStringLiteral("t"), 0, PartitionVerdict::Status::MatchWithDuplicates, 2000));
        QCOMPARE(VerifyTableModel::statusText(model.rows()[0]), QStringLiteral("match with 2 duplicates"));
        QCOMPARE(model.index(0, VerifyTableModel::SourceCountColumn).data().toString(), QStringLiteral("2,000"));
        QCOMPARE(proxy.index(0, VerifyTableModel::PartitionColumn).data().toString(), QStringLiteral("0")); // resorted
        model.setProgress(QStringLiteral("t"), 0, 10); // late progress never overwrites a verdict
        QCOMPARE(model.rows()[0].compared, 2000);
        model.setVerdict(verdict(QStringLiteral("u"), 0, PartitionVerdict::Status::Different, 3));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(2, VerifyTableModel::DifferenceColumn).data().toString(), QStringLiteral("value differs"));
        model.cancelPending();
        QCOMPARE(VerifyTableModel::statusText(model.rows()[1]), QStringLiteral("cancelled"));
        QCOMPARE(VerifyTableModel::statusText(model.rows()[2]), QStringLiteral("different"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void matchingTopicMatchesEverywhere()
    {
        const QString topic = uniqueName(QStringLiteral("verify-gui-match"));
        const QList<TestRecord> records = sampleRecords(0, 25) + sampleRecords(1, 12);
        makePair(topic, 3, records, records); // partition 2 empty on both sides
        VerifyDialog dlg(makeSpec(topic));
        QAbstractItemModelTester tester(dlg.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        dlg.setOptions(quickOptions());
        dlg.show();
        QSignalSpy finished(&dlg, &VerifyDialog::finished);
        QTest::mouseClick(dlg.startButton(), Qt::LeftButton);
        QVERIFY(dlg.isRunning());
        QVERIFY(!dlg.startButton()->isEnabled());
        QVERIFY(dlg.cancelButton()->isEnabled());
        QVERIFY(finished.wait(60000));
        QVERIFY2(dlg.report().completed, qPrintable(dlg.report().error));
        QVERIFY(!dlg.isRunning());
        QVERIFY(dlg.startButton()->isEnabled());
        QCOMPARE(dlg.model()->rowCount(), 3);
        const qint64 counts[] = {25, 12, 0};
        for (int p = 0; p < 3; ++p) {
            QCOMPARE(statusOf(dlg.model(), p), QStringLiteral("match"));
            const int row = dlg.model()->rowOf(topic, p);
            QCOMPARE(dlg.model()->rows()[row].compared, counts[p]);
        }
        QVERIFY2(dlg.summaryText().contains(QStringLiteral("3 partitions, 37 records: 3 match, 0 differ")),
                 qPrintable(dlg.summaryText()));
        // Sortable: partitions descending.
        dlg.table()->sortByColumn(VerifyTableModel::PartitionColumn, Qt::DescendingOrder);
        QCOMPARE(dlg.table()->model()->index(0, VerifyTableModel::PartitionColumn).data().toString(),
                 QStringLiteral("2"));
        // A matching row shows no records.
        QVERIFY(selectPartition(dlg, 0));
        QVERIFY(dlg.sourceRecordText().isEmpty());
        // Fits a 1366x768 laptop screen: its natural size and its minimum, every button inside.
        const QSize laptop(1366, 768);
        QVERIFY2(dlg.width() <= laptop.width() && dlg.height() <= laptop.height(),
                 qPrintable(QStringLiteral("%1x%2").arg(dlg.width()).arg(dlg.height())));
        const QSize minimum = dlg.minimumSizeHint();
        QVERIFY2(minimum.width() <= laptop.width() && minimum.height() <= laptop.height() - 60,
                 qPrintable(QStringLiteral("%1x%2").arg(minimum.width()).arg(minimum.height())));
        dlg.resize(minimum);
        QTest::qWait(20);
        for (QPushButton *b : dlg.findChildren<QPushButton *>()) {
            if (b->isVisible())
                QVERIFY2(dlg.rect().contains(QRect(b->mapTo(&dlg, QPoint(0, 0)), b->size())), qPrintable(b->text()));
        }
        // Headers are not cut off.
        for (int c = 0; c < VerifyTableModel::DifferenceColumn; ++c)
            QVERIFY(dlg.table()->columnWidth(c) >= dlg.table()->horizontalHeader()->sectionSizeHint(c));
    }

    void differenceShowsBothRecords()
    {
        const QString topic = uniqueName(QStringLiteral("verify-gui-diff"));
        QList<TestRecord> source, target;
        for (int p = 0; p < 3; ++p)
            source += simpleRecords(p, 10);
        target = source;
        // Partition 0: record 4's value changed on the target.
        target[4].value = QByteArray("tampered on the target");
        // Partition 1: one record only on the target, after the copy.
        TestRecord extra = simpleRecords(1, 1, 10).first();
        extra.value = QByteArray("only on the target");
        target.insert(20, extra);
        // Partition 2: its last record never reached the target.
        target.removeLast();
        makePair(topic, 3, source, target);

        VerifyDialog dlg(makeSpec(topic));
        QAbstractItemModelTester tester(dlg.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        dlg.setOptions(quickOptions());
        dlg.show();
        QSignalSpy finished(&dlg, &VerifyDialog::finished);
        dlg.start();
        QVERIFY(finished.wait(60000));
        QVERIFY2(dlg.report().completed, qPrintable(dlg.report().error));
        for (int p = 0; p < 3; ++p)
            QCOMPARE(statusOf(dlg.model(), p), QStringLiteral("different"));
        QVERIFY2(dlg.summaryText().contains(QStringLiteral("0 match, 3 differ")), qPrintable(dlg.summaryText()));

        QSignalSpy shown(&dlg, &VerifyDialog::differenceShown);
        QVERIFY(selectPartition(dlg, 0));
        QVERIFY(shown.wait(20000));
        QVERIFY2(dlg.differenceText().contains(QStringLiteral("value differs")), qPrintable(dlg.differenceText()));
        QVERIFY2(dlg.sourceRecordText().contains(QStringLiteral("value: v4")), qPrintable(dlg.sourceRecordText()));
        QVERIFY2(dlg.sourceRecordText().contains(QStringLiteral("key: k4")), qPrintable(dlg.sourceRecordText()));
        QVERIFY2(dlg.sourceRecordText().contains(QStringLiteral("header h: p0")), qPrintable(dlg.sourceRecordText()));
        QVERIFY2(dlg.targetRecordText().contains(QStringLiteral("value: tampered on the target")),
                 qPrintable(dlg.targetRecordText()));
        QVERIFY2(dlg.targetRecordText().contains(QStringLiteral("offset: 4")), qPrintable(dlg.targetRecordText()));

        QVERIFY(selectPartition(dlg, 1));
        QVERIFY(shown.wait(20000));
        QVERIFY2(dlg.sourceRecordText().startsWith(QStringLiteral("missing")), qPrintable(dlg.sourceRecordText()));
        QVERIFY2(dlg.targetRecordText().contains(QStringLiteral("value: only on the target")),
                 qPrintable(dlg.targetRecordText()));

        QVERIFY(selectPartition(dlg, 2));
        QVERIFY(shown.wait(20000));
        QVERIFY2(dlg.sourceRecordText().contains(QStringLiteral("value: v9")), qPrintable(dlg.sourceRecordText()));
        QVERIFY2(dlg.targetRecordText().startsWith(QStringLiteral("missing")), qPrintable(dlg.targetRecordText()));
    }

    void verifierReportsProgress()
    {
        makeBigTopic();
        QVERIFY(!m_bigTopic.isEmpty());
        struct Report {
            int partition;
            qint64 compared;
            qint64 atMs;
        };
        QList<Report> reports;
        QElapsedTimer clock;
        clock.start();
        VerifyOptions options = quickOptions();
        options.onProgress = [&](const QString &topic, int partition, qint64 compared) {
            QCOMPARE(topic, m_bigTopic);
            reports.append({partition, compared, clock.elapsed()});
        };
        const VerifyReport report = Verifier(makeSpec(m_bigTopic), options).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.plannedPartitions, kBigPartitions);
        for (int p = 0; p < kBigPartitions; ++p) {
            QList<Report> mine;
            for (const Report &r : reports) {
                if (r.partition == p)
                    mine.append(r);
            }
            QVERIFY(mine.size() >= 2);
            QCOMPARE(mine.first().compared, 0); // announced as it starts
            QCOMPARE(mine.last().compared, qint64(kBigRecords));
            for (int i = 1; i < mine.size(); ++i) {
                QVERIFY(mine[i].compared >= mine[i - 1].compared);
                // At most every ~100 ms, the last report (the end) aside.
                if (i >= 2 && i < mine.size() - 1)
                    QVERIFY2(mine[i].atMs - mine[i - 1].atMs >= 90,
                             qPrintable(QStringLiteral("%1 ms").arg(mine[i].atMs - mine[i - 1].atMs)));
            }
        }
        qInfo("progress: %lld reports for %d records in %lld ms", qint64(reports.size()), kBigPartitions * kBigRecords,
              clock.elapsed());
    }

    void verifierHonoursTheCancelFlag()
    {
        makeBigTopic();
        QVERIFY(!m_bigTopic.isEmpty());
        // Set before the run: not even the clusters are asked.
        std::atomic_bool cancel = true;
        VerifyOptions options = quickOptions();
        options.cancel = &cancel;
        VerifyReport report = Verifier(makeSpec(m_bigTopic), options).run();
        QVERIFY(report.cancelled);
        QVERIFY(!report.completed);
        QCOMPARE(report.exitCode(), 2);
        QCOMPARE(report.partitions.size(), 0);
        QCOMPARE(report.summary(), QStringLiteral("verify: cancelled before both clusters answered"));

        // Set from another thread while a partition is read: the run ends at once.
        cancel = false;
        std::atomic<qint64> cancelledAt = -1;
        std::atomic_int cancelledIn = -1;
        QElapsedTimer clock;
        clock.start();
        options.onProgress = [&](const QString &, int partition, qint64 compared) {
            if (compared > 0 && compared < kBigRecords && !cancel.exchange(true)) {
                cancelledAt = clock.elapsed();
                cancelledIn = partition;
            }
        };
        QFuture<VerifyReport> future =
            QtConcurrent::run([spec = makeSpec(m_bigTopic), options] { return Verifier(spec, options).run(); });
        report = future.result();
        const qint64 took = clock.elapsed() - cancelledAt;
        QVERIFY(cancelledAt >= 0);
        QVERIFY(report.cancelled);
        // Inside the partition being read, not after it: that one has no verdict.
        QCOMPARE(int(report.partitions.size()), int(cancelledIn));
        QVERIFY2(took < 2000, qPrintable(QStringLiteral("%1 ms").arg(took)));
        qInfo("engine cancel: returned %lld ms after the flag", took);
    }

    void cancelEndsTheRunPromptly()
    {
        makeBigTopic();
        QVERIFY(!m_bigTopic.isEmpty());
        VerifyDialog dlg(makeSpec(m_bigTopic));
        QAbstractItemModelTester tester(dlg.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        dlg.setOptions(quickOptions());
        dlg.show();
        QSignalSpy finished(&dlg, &VerifyDialog::finished);
        QTest::mouseClick(dlg.startButton(), Qt::LeftButton);
        // Records compared show up live, before the partition's verdict.
        QTRY_VERIFY_WITH_TIMEOUT(!dlg.model()->rows().isEmpty() && dlg.model()->rows().last().compared > 0 &&
                                     !dlg.model()->rows().last().verdict,
                                 30000);
        QVERIFY(finished.isEmpty());
        QVERIFY2(dlg.statusText().contains(QStringLiteral("comparing")), qPrintable(dlg.statusText()));
        QElapsedTimer clock;
        clock.start();
        QTest::mouseClick(dlg.cancelButton(), Qt::LeftButton);
        // Answered before the click returns: the run's own end comes later and is dropped.
        QCOMPARE(finished.size(), 1);
        const qint64 took = clock.elapsed();
        QVERIFY2(took < 200, qPrintable(QStringLiteral("%1 ms").arg(took)));
        qInfo("gui cancel: finished %lld ms after the click", took);
        QVERIFY(dlg.report().cancelled);
        const qsizetype done = dlg.report().partitions.size();
        QVERIFY(done < kBigPartitions);
        const QString expected = QStringLiteral("cancelled after %1 of %2 partitions").arg(done).arg(kBigPartitions);
        QVERIFY2(dlg.summaryText().contains(expected), qPrintable(dlg.summaryText()));
        QVERIFY2(dlg.statusText().contains(
                     QStringLiteral("Cancelled after %1 of %2 partitions").arg(done).arg(kBigPartitions)),
                 qPrintable(dlg.statusText()));
        QCOMPARE(statusOf(dlg.model(), int(done)), QStringLiteral("cancelled"));
        QVERIFY(dlg.startButton()->isEnabled());
    }

    void closingWhileRunningDoesNotWait()
    {
        makeBigTopic();
        QVERIFY(!m_bigTopic.isEmpty());
        auto *dlg = new VerifyDialog(makeSpec(m_bigTopic));
        dlg->setOptions(quickOptions());
        dlg->start();
        QTRY_VERIFY_WITH_TIMEOUT(!dlg->model()->rows().isEmpty(), 30000);
        QElapsedTimer clock;
        clock.start();
        delete dlg;
        QVERIFY(clock.elapsed() < 200);
        QTest::qWait(1500); // the task ends on its own and finds no dialog
    }

    void jobMenuOpensVerify()
    {
        MainWindow window;
        window.show();
        QAction *action = window.verifyAction();
        QVERIFY(action);
        QVERIFY(!action->isEnabled()); // no job selected
        const QString topic = uniqueName(QStringLiteral("verify-gui-menu"));
        window.addJob(new MirrorJob(makeSpec(topic)));
        QVERIFY(action->isEnabled());
        // Also a button beside the job list.
        auto *button = window.findChild<QToolButton *>(QStringLiteral("verifyJob"));
        QVERIFY(button);
        QCOMPARE(button->defaultAction(), action);
        QVERIFY(button->isVisible() && button->isEnabled());
        action->trigger();
        auto *dlg = window.findChild<VerifyDialog *>();
        QVERIFY(dlg);
        QVERIFY(dlg->isVisible());
        QCOMPARE(dlg->spec().include, makeSpec(topic).include);
        QCOMPARE(window.verifySelectedJob(), dlg); // one per job: the open one is raised
        dlg->close();
    }
};

QTEST_MAIN(TestVerifyDialog)
#include "tst_verifydialog.moc"
