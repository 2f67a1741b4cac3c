// "Show on the Other Cluster" in the main window's message browsers, on real
// brokers (MD_REQUIRE_BROKERS): a source partition with committed and aborted
// transactions (so its offsets and the copy's differ) mirrored by the real
// `mirrordesk run`, the job in the window's job list. A record selected on
// the source pane opens on the target pane at its copy's offset, selected; the
// copy selected there opens back at the source offset; a record not copied yet
// and a topic no job mirrors are refused with the reason.
#include "../integration/failover_support.h"

#include "engine/mirror/MirrorJob.h"
#include "model/profile/JobProfile.h"
#include "ui/cluster/ClusterPane.h"
#include "ui/cluster/MessagesPanel.h"
#include "ui/cluster/OtherSideLookup.h"
#include "ui/window/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>

using namespace md;
using namespace md::test;

namespace {

QList<TestRecord> batch(const char *tag, int from, int n, int partition)
{
    QList<TestRecord> out;
    for (int i = from; i < from + n; ++i) {
        TestRecord r;
        r.value = QByteArray(tag) + QByteArray::number(i);
        r.partition = partition;
        out << r;
    }
    return out;
}

// Reads partition `partition` of `topic` from `offset` in the panel, retrying while a fresh topic
// does not answer yet; true once messages are shown.
bool openUntilShown(MessagesPanel *panel, const QString &topic, int partition, qint64 offset)
{
    QSignalSpy shown(panel, &MessagesPanel::messagesShown);
    QSignalSpy failed(panel, &MessagesPanel::readFailed);
    for (int attempt = 0; attempt < 20; ++attempt) {
        shown.clear();
        failed.clear();
        panel->openAt(topic, partition, offset);
        QElapsedTimer wait;
        wait.start();
        while (shown.isEmpty() && failed.isEmpty() && wait.elapsed() < 30000)
            QTest::qWait(20);
        if (!shown.isEmpty() && shown.first().first().toInt() > 0)
            return true;
        QTest::qWait(300);
    }
    return false;
}

bool selectOffset(MessagesPanel *panel, qint64 offset)
{
    const QAbstractItemModel *view = panel->view()->model();
    for (int row = 0; row < view->rowCount(); ++row) {
        const auto *proxy = qobject_cast<const QSortFilterProxyModel *>(view);
        const KafkaMessage *m = panel->model()->messageAt(proxy->mapToSource(view->index(row, 0)).row());
        if (m && m->offset == offset) {
            panel->view()->selectRow(row);
            return true;
        }
    }
    return false;
}

QString shownText(const MessagesPanel *panel)
{
    const KafkaMessage *m = panel->currentMessage();
    return m ? QStringLiteral("%1 [%2] %3 %4")
                   .arg(m->topic)
                   .arg(m->partition)
                   .arg(m->offset)
                   .arg(QString::fromUtf8(m->value.value_or(QByteArray())))
             : QStringLiteral("nothing selected; status: ") + panel->statusText();
}

} // namespace

class TestShowOnOther final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        QVERIFY(QFile::exists(mirrordeskExe()));
        QVERIFY(m_dir.isValid());
    }

    void showsTheRecordOnTheOtherPane()
    {
        const QString topic = uniqueName(QStringLiteral("other-gui"));
        const QString targetTopic = QStringLiteral("src.") + topic;
        const QString unmirrored = uniqueName(QStringLiteral("other-gui-alone"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(createTopic(sourceBootstrap(), unmirrored, 1, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), unmirrored, batch("u", 0, 3, 0), &error), qPrintable(error));
        // Partition 1: p0..p9 at 0-9, marker 10, aborted 11-15, marker 16, p10..p19 at 17-26, marker 27.
        // The copy holds p0..p19 at 0-19: source 20 (p13) is target 13. Partition 0 has records too.
        QVERIFY2(produceTransactionalCommitted(sourceBootstrap(), topic, batch("q", 0, 5, 0), &error),
                 qPrintable(error));
        QVERIFY2(produceTransactionalCommitted(sourceBootstrap(), topic, batch("p", 0, 10, 1), &error),
                 qPrintable(error));
        QVERIFY2(produceTransactionalAborted(sourceBootstrap(), topic, batch("x", 0, 5, 1), &error), qPrintable(error));
        QVERIFY2(produceTransactionalCommitted(sourceBootstrap(), topic, batch("p", 10, 10, 1), &error),
                 qPrintable(error));
        ProfileSpec p;
        p.name = topic;
        p.topic = topic;
        const ExeResult run = runToTheEnd(writeProfile(m_dir.path(), topic + QStringLiteral(".mirrorjob"), p));
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        // After the run: not copied yet, at source offset 28.
        QVERIFY2(produce(sourceBootstrap(), topic, batch("late", 0, 1, 1), &error), qPrintable(error));

        MirrorJobSpec spec;
        spec.name = topic;
        spec.source.alias = QStringLiteral("src");
        spec.source.bootstrap = sourceBootstrap();
        spec.target.alias = QStringLiteral("dst");
        spec.target.bootstrap = targetBootstrap();
        spec.include = {QRegularExpression::escape(topic)};
        spec.naming = NamingPolicy::Prefix;
        spec.groupId = JobProfile::groupIdForName(topic);

        MainWindow window;
        MessagesPanel *source = window.sourcePane()->messagesPanel();
        MessagesPanel *target = window.targetPane()->messagesPanel();
        QAbstractItemModelTester sourceTester(source->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester targetTester(target->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.resize(1400, 900);
        window.show();
        window.showClusters(spec.source, spec.target);
        QAction *action = source->showOnOtherAction();
        QVERIFY(source->view()->actions().contains(action)); // the table's context menu
        QCOMPARE(source->showOnOtherButton()->defaultAction(), action);

        // No job yet: disabled, and the tooltip says why.
        QVERIFY(openUntilShown(source, topic, 1, 0));
        QVERIFY(selectOffset(source, 20));
        QVERIFY(!action->isEnabled());
        QVERIFY2(action->toolTip().contains(QLatin1String("connects these two clusters")),
                 qPrintable(action->toolTip()));
        // Listed, not started: the real job's map is on the target already. A job listed before it
        // copies the topic too but has no map: the first job whose map has the partition answers.
        MirrorJobSpec decoy = spec;
        decoy.name = topic + QStringLiteral("-decoy");
        decoy.groupId = uniqueName(QStringLiteral("other-gui-decoy"));
        window.addJob(new MirrorJob(decoy));
        window.addJob(new MirrorJob(spec));
        QVERIFY2(action->isEnabled(), qPrintable(action->toolTip()));
        QVERIFY2(action->toolTip().contains(decoy.name) && action->toolTip().contains(QLatin1String("dst")),
                 qPrintable(action->toolTip()));

        // Source -> target: the copy, selected.
        QSignalSpy finished(window.otherSideLookup(), &OtherSideLookup::lookupFinished);
        QSignalSpy targetShown(target, &MessagesPanel::messagesShown);
        action->trigger();
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
        QVERIFY2(finished.last().at(1).toString().contains(QStringLiteral("(job \"%1\")").arg(topic)),
                 qPrintable(finished.last().at(1).toString()));
        QVERIFY(targetShown.wait(60000));
        const KafkaMessage *copy = target->currentMessage();
        QVERIFY2(copy, qPrintable(shownText(target)));
        QCOMPARE(copy->topic, targetTopic);
        QCOMPARE(copy->partition, 1);
        QCOMPARE(copy->offset, qint64(13));
        QCOMPARE(copy->value, std::optional<QByteArray>(QByteArray("p13")));
        QCOMPARE(target->topicBox()->currentText(), targetTopic);
        QCOMPARE(target->partitionBox()->currentData().toInt(), 1);
        QCOMPARE(target->offsetEdit()->text(), QStringLiteral("13"));
        QCOMPARE(window.targetPane()->tabs()->currentWidget(), target);

        // Target -> source, from the copy now selected there: back across the aborted gap.
        QAction *back = target->showOnOtherAction();
        QVERIFY2(back->isEnabled(), qPrintable(back->toolTip()));
        QSignalSpy sourceShown(source, &MessagesPanel::messagesShown);
        back->trigger();
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
        QVERIFY(sourceShown.wait(60000));
        const KafkaMessage *original = source->currentMessage();
        QVERIFY2(original, qPrintable(shownText(source)));
        QCOMPARE(original->topic, topic);
        QCOMPARE(original->partition, 1);
        QCOMPARE(original->offset, qint64(20));
        QCOMPARE(original->value, std::optional<QByteArray>(QByteArray("p13")));

        // Not copied yet: said, naming the offset; the target pane stays as it was.
        QVERIFY(openUntilShown(source, topic, 1, 28));
        QCOMPARE(source->currentMessage()->offset, qint64(28));
        targetShown.clear();
        action->trigger();
        QVERIFY(finished.wait(60000));
        QVERIFY(!finished.last().at(0).toBool());
        const QString why = finished.last().at(1).toString();
        QVERIFY2(why.contains(QLatin1String("offset 28")) && why.contains(QLatin1String("not copied yet")),
                 qPrintable(why));
        QCOMPARE(source->statusText(), why);
        QVERIFY(!target->isReading());
        QCOMPARE(target->currentMessage()->offset, qint64(13));

        // A topic no job mirrors: disabled, the tooltip names it.
        QVERIFY(openUntilShown(source, unmirrored, 0, 0));
        QVERIFY(source->currentMessage());
        QVERIFY(!action->isEnabled());
        QVERIFY2(action->toolTip().contains(unmirrored), qPrintable(action->toolTip()));
    }
};

QTEST_MAIN(TestShowOnOther)
#include "tst_showonother.moc"
