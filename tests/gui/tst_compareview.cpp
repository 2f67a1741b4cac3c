// The Compare view against the real "source" and "target" brokers: topics set up to differ
// (one missing on the target, one target topic without a source, one with fewer partitions,
// one behind by 8 records, one with a different config, one in sync) and the view shows
// exactly that; the main window opens it for the selected job; an unreachable cluster is
// reported in words.
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/core/Tasks.h"
#include "engine/mirror/MirrorJob.h"
#include "model/tables/ClusterDiffModel.h"
#include "ui/job/CompareView.h"
#include "ui/window/MainWindow.h"
#include "ui/window/WorkArea.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QThreadPool>
#include <QToolButton>
#include <QTreeView>

#include <algorithm>

using namespace md;

namespace {

QList<test::TestRecord> records(int partition, int count)
{
    QList<test::TestRecord> out;
    for (int i = 0; i < count; ++i) {
        test::TestRecord r;
        r.value = QByteArray::number(i);
        r.partition = partition;
        out.append(r);
    }
    return out;
}

const TopicDiff *findTopic(const ClusterDiff &d, const QString &source)
{
    for (const TopicDiff &t : d.topics) {
        if (t.sourceTopic == source)
            return &t;
    }
    return nullptr;
}

int proxyRowOf(const QAbstractItemModel *m, const QString &name)
{
    for (int r = 0; r < m->rowCount(); ++r) {
        if (m->index(r, ClusterDiffModel::NameColumn).data().toString() == name)
            return r;
    }
    return -1;
}

// Refreshes until every topic has its watermarks (a fresh topic may not answer ListOffsets
// at once, and DescribeConfigs can trail a create) and `expected` topics are listed.
bool settle(CompareView &view, qsizetype expected)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000) {
        QSignalSpy spy(&view, &CompareView::refreshed);
        view.refresh();
        // A fetch already running when refresh() was called started before
        // whatever the test just changed: its answer is stale, and the view
        // runs the asked-for one after it. Wait for that one.
        do {
            spy.clear();
            if (!spy.wait(30000))
                return false;
        } while (view.isRefreshing());
        const ClusterDiff &d = view.diff();
        const bool complete =
            d.topics.size() == expected && std::none_of(d.topics.cbegin(), d.topics.cend(), [](const TopicDiff &x) {
                return x.status == TopicDiff::Status::Error ||
                       (x.status == TopicDiff::Status::InSync && !x.configsCompared);
            });
        if (complete)
            return true;
        QTest::qWait(500);
    }
    return false;
}

} // namespace

class TstCompareView final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void showsExactlyTheDifferences()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        const QString src = test::sourceBootstrap();
        const QString dst = test::targetBootstrap();
        const QString base = test::uniqueName(QStringLiteral("cmp"));
        const auto s = [&](const char *suffix) { return QString(base + QLatin1Char('.') + QLatin1String(suffix)); };
        // The job's prefix naming: "<source alias>.<topic>".
        const auto t = [&](const char *suffix) { return QString(QStringLiteral("source.") + s(suffix)); };
        QString error;
        QVERIFY2(test::createTopic(src, s("same"), 2, {}, &error), qPrintable(error));
        QVERIFY2(test::createTopic(dst, t("same"), 2, {}, &error), qPrintable(error));
        QVERIFY2(test::produce(src, s("same"), records(0, 3) + records(1, 2), &error), qPrintable(error));
        QVERIFY2(test::produce(dst, t("same"), records(0, 3) + records(1, 2), &error), qPrintable(error));
        QVERIFY2(test::createTopic(src, s("missing"), 1, {}, &error), qPrintable(error));
        QVERIFY2(test::createTopic(dst, t("orphan"), 1, {}, &error), qPrintable(error));
        QVERIFY2(test::createTopic(src, s("fewer"), 3, {}, &error), qPrintable(error));
        QVERIFY2(test::createTopic(dst, t("fewer"), 2, {}, &error), qPrintable(error));
        QVERIFY2(test::createTopic(src, s("behind"), 1, {}, &error), qPrintable(error));
        QVERIFY2(test::createTopic(dst, t("behind"), 1, {}, &error), qPrintable(error));
        QVERIFY2(test::produce(src, s("behind"), records(0, 20), &error), qPrintable(error));
        QVERIFY2(test::produce(dst, t("behind"), records(0, 12), &error), qPrintable(error));
        QVERIFY2(test::createTopic(src, s("config"), 1, {{QStringLiteral("retention.ms"), QStringLiteral("3600000")}},
                                   &error),
                 qPrintable(error));
        QVERIFY2(test::createTopic(dst, t("config"), 1, {}, &error), qPrintable(error));
        // A topic the job does not select never shows.
        QVERIFY2(test::createTopic(src, base + QStringLiteral("-other"), 1, {}, &error), qPrintable(error));

        MirrorJobSpec spec;
        spec.name = QStringLiteral("compare");
        spec.source = test::clusterConfig(QStringLiteral("source"));
        spec.target = test::clusterConfig(QStringLiteral("target"));
        spec.naming = NamingPolicy::Prefix;
        spec.include = {QRegularExpression::escape(base) + QStringLiteral("\\..*")};

        // Opened from the main window's job list, for the selected job.
        MainWindow window;
        window.addJob(new MirrorJob(spec));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *compare = window.findChild<QToolButton *>(QStringLiteral("compareClusters"));
        QVERIFY(compare);
        QVERIFY(compare->isEnabled());
        QTest::mouseClick(compare, Qt::LeftButton);
        auto *view = window.findChild<CompareView *>();
        QVERIFY(view);
        QCOMPARE(view->spec(), spec);
        // A tab of the window's work area, not a window of its own.
        QVERIFY(!view->isWindow());
        QVERIFY(window.workArea()->isOpen(view));
        QAbstractItemModelTester tester(view->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(view->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(settle(*view, 6));

        const ClusterDiff &d = view->diff();
        using S = TopicDiff::Status;
        QCOMPARE(findTopic(d, s("same"))->status, S::InSync);
        QCOMPARE(findTopic(d, s("missing"))->status, S::MissingOnTarget);
        QCOMPARE(findTopic(d, s("missing"))->targetTopic, t("missing"));
        QCOMPARE(findTopic(d, s("orphan"))->status, S::MissingOnSource);
        QCOMPARE(findTopic(d, s("orphan"))->targetTopic, t("orphan"));
        const TopicDiff *fewer = findTopic(d, s("fewer"));
        QCOMPARE(fewer->status, S::PartitionCount);
        QCOMPARE(fewer->sourcePartitions, 3);
        QCOMPARE(fewer->targetPartitions, 2);
        const TopicDiff *behind = findTopic(d, s("behind"));
        QCOMPARE(behind->status, S::Behind);
        QCOMPARE(behind->recordsBehind, 8);
        QCOMPARE(behind->sourceCount(), 20);
        QCOMPARE(behind->targetCount(), 12);
        const TopicDiff *config = findTopic(d, s("config"));
        QCOMPARE(config->status, S::Configs);
        QCOMPARE(config->configs.size(), 1);
        QCOMPARE(config->configs.first().name, QStringLiteral("retention.ms"));
        QCOMPARE(config->configs.first().source.value_or(QString()), QStringLiteral("3600000"));
        QVERIFY(config->configs.first().target.has_value());
        QVERIFY(*config->configs.first().target != QStringLiteral("3600000"));
        QVERIFY(!findTopic(d, base + QStringLiteral("-other")));
        QCOMPARE(view->summaryText(),
                 QStringLiteral("6 topics: 1 in sync, 1 missing on target, 1 missing on source, 1 with a different "
                                "partition count, 1 behind by 8 records, 1 with different configs"));

        // The tree: per partition the end offsets and counts side by side.
        QAbstractItemModel *m = view->proxy();
        QCOMPARE(m->rowCount(), 6);
        const int row = proxyRowOf(m, s("behind"));
        QVERIFY(row >= 0);
        const QModelIndex topic = m->index(row, 0);
        QCOMPARE(m->rowCount(topic), 1);
        QCOMPARE(m->index(0, ClusterDiffModel::SourceEndColumn, topic).data().toLongLong(), 20);
        QCOMPARE(m->index(0, ClusterDiffModel::TargetEndColumn, topic).data().toLongLong(), 12);
        QCOMPARE(m->index(0, ClusterDiffModel::SourceCountColumn, topic).data().toLongLong(), 20);
        QCOMPARE(m->index(0, ClusterDiffModel::TargetCountColumn, topic).data().toLongLong(), 12);
        QCOMPARE(m->index(0, ClusterDiffModel::DifferenceColumn, topic).data().toLongLong(), 8);
        QCOMPARE(m->index(row, ClusterDiffModel::StatusColumn).data().toString(), QStringLiteral("behind"));
        const int configRow = proxyRowOf(m, s("config"));
        QVERIFY(m->index(configRow, ClusterDiffModel::DetailsColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("retention.ms: 3600000")));

        // Differences only: the one topic in sync goes.
        auto *only = view->findChild<QCheckBox *>(QStringLiteral("differencesOnly"));
        QVERIFY(only);
        only->setChecked(true);
        QCOMPARE(m->rowCount(), 5);
        QCOMPARE(proxyRowOf(m, s("same")), -1);
        // The text filter keeps a matching topic with its partitions.
        auto *filter = view->findChild<QLineEdit *>(QStringLiteral("filter"));
        filter->setText(QStringLiteral(".fewer"));
        QCOMPARE(m->rowCount(), 1);
        QCOMPARE(m->rowCount(m->index(0, 0)), 3);
        QCOMPARE(m->index(2, ClusterDiffModel::StatusColumn, m->index(0, 0)).data().toString(),
                 QStringLiteral("missing on target"));
        filter->clear();
        only->setChecked(false);

        // The mirror catches up on "behind": a refresh shows it in sync.
        QVERIFY2(test::produce(dst, t("behind"), records(0, 8), &error), qPrintable(error));
        QVERIFY(settle(*view, 6));
        {
            const TopicDiff *caught = findTopic(view->diff(), s("behind"));
            QVERIFY2(caught->status == S::InSync, qPrintable(QStringLiteral("status %1: source %2, target %3 records")
                                                                 .arg(int(caught->status))
                                                                 .arg(caught->sourceCount())
                                                                 .arg(caught->targetCount())));
        }
        QVERIFY(view->summaryText().startsWith(QStringLiteral("6 topics: 2 in sync")));

        window.close();
        for (const char *x : {"same", "missing", "fewer", "behind", "config"})
            test::deleteTopic(src, s(x));
        for (const char *x : {"same", "orphan", "fewer", "behind", "config"})
            test::deleteTopic(dst, t(x));
        test::deleteTopic(src, base + QStringLiteral("-other"));
    }

    void unreachableTargetIsReported()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        MirrorJobSpec spec;
        spec.name = QStringLiteral("nowhere");
        spec.source = test::clusterConfig(QStringLiteral("source"));
        spec.target.alias = QStringLiteral("nowhere");
        spec.target.bootstrap = QStringLiteral("127.0.0.1:1");
        spec.include = {QStringLiteral("cmp-none-.*")};
        CompareView view(spec);
        view.show();
        QSignalSpy spy(&view, &CompareView::refreshed);
        // The UI thread stays free while the fetch runs.
        QVERIFY(view.isBusy());
        QVERIFY(spy.wait(30000));
        QVERIFY2(view.errorText().contains(QStringLiteral("nowhere")), qPrintable(view.errorText()));
        QCOMPARE(view.summaryText(), QStringLiteral("Could not compare the clusters."));
        QVERIFY(!view.isBusy());
    }

    // Closing the view while its fetch runs returns at once (nothing waits on the UI
    // thread), cancels the fetch, and its late answer goes nowhere instead of into a freed view.
    void closingWhileFetchingDoesNotWait()
    {
        MirrorJobSpec spec;
        spec.name = QStringLiteral("closed");
        spec.source.alias = QStringLiteral("nowhere");
        spec.source.bootstrap = QStringLiteral("127.0.0.1:1");
        spec.target = spec.source;
        spec.include = {QStringLiteral("cmp-none-.*")};
        QElapsedTimer fetch;
        fetch.start();
        auto *view = new CompareView(spec);
        view->show();
        QVERIFY(view->isBusy());
        QElapsedTimer closing;
        closing.start();
        delete view;
        const qint64 closeMs = closing.elapsed();
        QVERIFY(md::taskPool()->waitForDone(60000));
        const qint64 fetchMs = fetch.elapsed();
        QCoreApplication::processEvents(); // the answer's continuation runs, and drops it
        QTest::qWait(50);
        // Closing takes no time, and cancels the reading, which ends within about a second.
        QVERIFY2(closeMs < 200, qPrintable(QString::number(closeMs)));
        QVERIFY2(fetchMs < 3000, qPrintable(QString::number(fetchMs)));
    }
};

QTEST_MAIN(TstCompareView)
#include "tst_compareview.moc"
