// Reset Progress and the plan's start positions against real brokers
// (MD_REQUIRE_BROKERS_NAMED): a job group with committed offsets is previewed
// back to the earliest offsets, the preview shows the log start and what the
// next run copies, Reset writes it (read back with a plain librdkafka client,
// not MirrorDesk's), an active member of the group makes the reset refused
// with the reason shown, a result that arrives after the dialog closed is
// dropped, the window's Reset action is unavailable while it runs the job, and
// the job editor's plan says per partition where the job starts and why.
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/mirror/MirrorJob.h"
#include "model/profile/JobProfile.h"
#include "model/tables/ProgressTableModel.h"
#include "ui/connections/SecretStore.h"
#include "ui/dialogs/ResetProgressDialog.h"
#include "ui/job/JobEditor.h"
#include "ui/job/JobWorkspace.h"
#include "ui/job/PlanView.h"
#include "ui/window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QDateTimeEdit>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <librdkafka/rdkafka.h>

using namespace md;

namespace {

constexpr int kPartitions = 3;
constexpr int kRecords = 30; // per partition

// The group's committed offsets as an independent client reads them (partition -> offset, -1: none).
QMap<int, qint64> committedOffsets(const QString &group, const QString &topic, QString *error)
{
    QMap<int, qint64> out;
    char err[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    const QList<QPair<const char *, QByteArray>> props = {{"bootstrap.servers", test::sourceBootstrap().toUtf8()},
                                                          {"group.id", group.toUtf8()},
                                                          {"enable.auto.commit", "false"}};
    for (const auto &[key, value] : props) {
        if (rd_kafka_conf_set(conf, key, value.constData(), err, sizeof err) != RD_KAFKA_CONF_OK) {
            *error = QString::fromUtf8(err);
            rd_kafka_conf_destroy(conf);
            return {};
        }
    }
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err);
    if (!rk) {
        *error = QString::fromUtf8(err);
        rd_kafka_conf_destroy(conf);
        return {};
    }
    rd_kafka_topic_partition_list_t *list = rd_kafka_topic_partition_list_new(kPartitions);
    const QByteArray name = topic.toUtf8();
    for (int p = 0; p < kPartitions; ++p)
        rd_kafka_topic_partition_list_add(list, name.constData(), p);
    const rd_kafka_resp_err_t e = rd_kafka_committed(rk, list, 15000);
    if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
        *error = QString::fromUtf8(rd_kafka_err2str(e));
    } else {
        for (int i = 0; i < list->cnt; ++i)
            out.insert(list->elems[i].partition, list->elems[i].offset < 0 ? -1 : list->elems[i].offset);
    }
    rd_kafka_topic_partition_list_destroy(list);
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
    return out;
}

QString cell(const QAbstractItemModel *m, int row, int column)
{
    return m->index(row, column).data().toString();
}

} // namespace

class TestResetProgress final : public QObject {
    Q_OBJECT

    QString m_topic;
    QString m_group;
    test::Watermarks m_marks;

    QByteArray profileJson() const
    {
        return QStringLiteral(R"({"mirrordesk": 1, "name": "reset plan",
            "source": {"alias": "src", "bootstrap": "%1"}, "target": {"alias": "dst", "bootstrap": "%2"},
            "topics": {"include": ["%3"]}, "groupId": "%4", "start": "latest"})")
            .arg(test::sourceBootstrap(), test::targetBootstrap(), m_topic, m_group)
            .toUtf8();
    }

    // Commits `offsets` for the job group and leaves it Empty again.
    bool commit(const QMap<int, qint64> &offsets, QString *error)
    {
        test::GroupMember member;
        if (!member.start(test::sourceBootstrap(), m_group, m_topic, error))
            return false;
        return member.commit(offsets, error);
    }

    MirrorJobSpec spec(const QString &name, const QString &group, StartPosition start = StartPosition::Latest) const
    {
        MirrorJobSpec s;
        s.name = name;
        s.source = test::clusterConfig(QStringLiteral("source"));
        s.target = test::clusterConfig(QStringLiteral("target"));
        s.include = {QRegularExpression::escape(m_topic)};
        s.groupId = group;
        s.start = start;
        return s;
    }

    static bool clickAndWait(QPushButton *button, QSignalSpy &spy, int timeoutMs = 30000)
    {
        const qsizetype before = spy.size();
        if (!button->isEnabled())
            return false;
        QTest::mouseClick(button, Qt::LeftButton);
        return QTest::qWaitFor([&] { return spy.size() > before; }, timeoutMs);
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        m_topic = test::uniqueName(QStringLiteral("reset"));
        m_group = test::uniqueName(QStringLiteral("mirrordesk-reset"));
        QString error;
        QVERIFY2(test::createTopic(test::sourceBootstrap(), m_topic, kPartitions, {}, &error), qPrintable(error));
        QList<test::TestRecord> records;
        for (int p = 0; p < kPartitions; ++p) {
            for (int i = 0; i < kRecords; ++i) {
                test::TestRecord r;
                r.key = QByteArray::number(i);
                r.value = QByteArray("v") + QByteArray::number(p * 1000 + i);
                r.partition = p;
                records.append(r);
            }
        }
        QVERIFY2(test::produce(test::sourceBootstrap(), m_topic, records, &error), qPrintable(error));
        const std::optional<test::Watermarks> marks = test::watermarks(test::sourceBootstrap(), m_topic, &error);
        QVERIFY2(marks, qPrintable(error));
        m_marks = *marks;
        // Progress on partitions 0 and 1; partition 2 has none.
        QVERIFY2(commit({{0, 20}, {1, 25}}, &error), qPrintable(error));
        const QMap<int, qint64> committed = committedOffsets(m_group, m_topic, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(committed.value(0), 20);
        QCOMPARE(committed.value(1), 25);
        QCOMPARE(committed.value(2), -1);
    }

    void cleanupTestCase()
    {
        if (m_topic.isEmpty())
            return;
        test::deleteTopic(test::sourceBootstrap(), m_topic);
        test::deleteTopic(test::targetBootstrap(), QStringLiteral("source.") + m_topic); // the running job's copy
    }

    // Runs first: the plan reads the group's progress before anything resets it.
    void planShowsWhereEachPartitionStarts()
    {
        QList<ProfileIssue> issues;
        const JobProfile profile = JobProfile::fromJson(profileJson(), QStringLiteral("reset-plan.mirrorjob"), &issues);
        QVERIFY(!hasErrors(issues));
        PlanView view;
        view.setDebounceMs(0);
        QSignalSpy progressed(&view, &PlanView::progressUpdated);
        view.setProfile(profile, {});
        QVERIFY(progressed.wait(40000));
        QVERIFY2(view.progress().ok, qPrintable(view.progress().error));
        QCOMPARE(view.state(), PlanView::State::Ready);
        ProgressTableModel *m = view.startsModel();
        QCOMPARE(m->rowCount(), kPartitions);
        // Committed progress wins over "latest"; only partition 2 starts as `start` says.
        const QList<PartitionStart> &rows = m->partitions();
        QCOMPARE(rows[0].reason, StartReason::Committed);
        QCOMPARE(rows[0].start, 20);
        QCOMPARE(cell(m, 0, ProgressTableModel::StartColumn), rows[0].describe());
        QVERIFY2(cell(m, 0, ProgressTableModel::StartColumn).contains(QStringLiteral("20")),
                 qPrintable(cell(m, 0, ProgressTableModel::StartColumn)));
        QCOMPARE(cell(m, 0, ProgressTableModel::ToCopyColumn), QString::number(kRecords - 20));
        QCOMPARE(cell(m, 1, ProgressTableModel::ToCopyColumn), QString::number(kRecords - 25));
        QCOMPARE(rows[2].reason, StartReason::Latest);
        QCOMPARE(cell(m, 2, ProgressTableModel::CommittedColumn), QStringLiteral("none"));
        QCOMPARE(cell(m, 2, ProgressTableModel::StartColumn), rows[2].describe());
        QCOMPARE(cell(m, 2, ProgressTableModel::ToCopyColumn), QStringLiteral("0"));
        QVERIFY2(view.startsText().contains(QStringLiteral("15 records to copy")), qPrintable(view.startsText()));
        auto *table = view.findChild<QTableView *>(QStringLiteral("planStarts"));
        QVERIFY(table);
        QCOMPARE(table->model()->rowCount(), kPartitions);
    }

    // The editor's way in: the plan's Start positions tab asks for the job's dialog.
    void editorAsksForTheDialog()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("reset-plan.mirrorjob"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(profileJson());
        f.close();
        SecretStore store(std::make_unique<MemorySecretBackend>());
        JobWorkspace ws(&store);
        ws.setQuestionHook([](JobWorkspace::Question, const QString &text) {
            qWarning("unexpected question: %s", qPrintable(text));
            return 0;
        });
        JobEditor *editor = ws.openFile(path);
        QVERIFY(editor);
        QSignalSpy asked(&ws, &JobWorkspace::resetProgressRequested);
        auto *button = editor->planView()->findChild<QPushButton *>(QStringLiteral("resetProgress"));
        QVERIFY(button);
        button->click();
        QCOMPARE(asked.size(), 1);
        const auto spec = asked.at(0).at(0).value<MirrorJobSpec>();
        QCOMPARE(spec.groupId, m_group);
        QCOMPARE(spec.source.bootstrap, test::sourceBootstrap());
    }

    void previewEarliestThenReset()
    {
        ResetProgressDialog dlg(spec(QStringLiteral("reset job"), m_group));
        QStringList asked;
        dlg.setConfirmHook([&asked](const QString &text) {
            asked.append(text);
            return true;
        });
        dlg.show();
        auto *preview = dlg.findChild<QPushButton *>(QStringLiteral("previewReset"));
        auto *apply = dlg.findChild<QPushButton *>(QStringLiteral("applyReset"));
        QVERIFY(preview && apply);
        QVERIFY(dlg.findChild<QRadioButton *>(QStringLiteral("resetEarliest"))->isChecked());
        QVERIFY2(!apply->isEnabled(), "Reset before a preview");

        QSignalSpy previewed(&dlg, &ResetProgressDialog::previewFinished);
        QVERIFY(clickAndWait(preview, previewed));
        QCOMPARE(previewed.last().at(0).toBool(), true);
        QVERIFY2(dlg.plan().ok, qPrintable(dlg.plan().error));
        const QAbstractItemModel *m = dlg.table()->model();
        QCOMPARE(m->rowCount(), kPartitions);
        const qint64 committedBefore[kPartitions] = {20, 25, -1};
        qint64 total = 0;
        for (int p = 0; p < kPartitions; ++p) {
            const qint64 low = m_marks.value(p).first;
            const qint64 high = m_marks.value(p).second;
            QCOMPARE(cell(m, p, ProgressTableModel::PartitionColumn), QString::number(p));
            QCOMPARE(cell(m, p, ProgressTableModel::LogStartColumn), formatOffset(low));
            QCOMPARE(cell(m, p, ProgressTableModel::CommittedColumn),
                     committedBefore[p] < 0 ? QStringLiteral("none") : QString::number(committedBefore[p]));
            QCOMPARE(cell(m, p, ProgressTableModel::StartColumn), formatOffset(low));
            QCOMPARE(cell(m, p, ProgressTableModel::ToCopyColumn), formatOffset(high - low));
            total += high - low;
        }
        QVERIFY2(dlg.summaryText().contains(QStringLiteral("%1 records to copy").arg(total)),
                 qPrintable(dlg.summaryText()));
        QVERIFY2(dlg.summaryText().contains(QStringLiteral("no active members")), qPrintable(dlg.summaryText()));
        QVERIFY(apply->isEnabled());

        // Changing an option makes the preview stale until it is taken again.
        auto *topics = dlg.findChild<QLineEdit *>(QStringLiteral("resetTopics"));
        topics->setText(QStringLiteral("no-such-topic-.*"));
        QVERIFY(!apply->isEnabled());
        topics->clear();
        QVERIFY(apply->isEnabled());
        topics->setText(QStringLiteral("(unclosed"));
        QVERIFY(!preview->isEnabled());
        topics->clear();

        // Declined: nothing is written.
        dlg.setConfirmHook([](const QString &) { return false; });
        QTest::mouseClick(apply, Qt::LeftButton);
        QVERIFY(!dlg.isBusy());
        QString error;
        QCOMPARE(committedOffsets(m_group, m_topic, &error).value(0), 20);

        dlg.setConfirmHook([&asked](const QString &text) {
            asked.append(text);
            return true;
        });
        QSignalSpy reset(&dlg, &ResetProgressDialog::resetFinished);
        QVERIFY(clickAndWait(apply, reset));
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked[0].contains(m_group) && asked[0].contains(QStringLiteral("3 partitions")), qPrintable(asked[0]));
        QVERIFY2(reset.last().at(0).toBool(), qPrintable(reset.last().at(1).toString()));
        QVERIFY2(dlg.statusText().contains(QStringLiteral("Reset done")), qPrintable(dlg.statusText()));

        const QMap<int, qint64> committed = committedOffsets(m_group, m_topic, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (int p = 0; p < kPartitions; ++p)
            QCOMPARE(committed.value(p), m_marks.value(p).first);

        // The dialog reads the group again: what it committed is what it shows.
        QTRY_VERIFY_WITH_TIMEOUT(!dlg.isBusy() && previewed.size() >= 2, 30000);
        for (int p = 0; p < kPartitions; ++p)
            QCOMPARE(cell(m, p, ProgressTableModel::CommittedColumn), formatOffset(m_marks.value(p).first));
        QVERIFY2(dlg.statusText().contains(QStringLiteral("Reset done")), qPrintable(dlg.statusText()));
    }

    void previewAtATime()
    {
        ResetProgressDialog dlg(spec(QStringLiteral("reset job"), m_group));
        dlg.show();
        dlg.findChild<QRadioButton *>(QStringLiteral("resetTimestamp"))->setChecked(true);
        auto *time = dlg.findChild<QDateTimeEdit *>(QStringLiteral("resetTime"));
        QVERIFY(time->isEnabled());
        QSignalSpy previewed(&dlg, &ResetProgressDialog::previewFinished);
        auto *preview = dlg.findChild<QPushButton *>(QStringLiteral("previewReset"));
        // Before every record: the log start. After every record: the end, nothing to copy.
        const struct {
            QDateTime at;
            bool end;
        } cases[] = {{QDateTime::currentDateTimeUtc().addDays(-1), false},
                     {QDateTime::currentDateTimeUtc().addDays(1), true}};
        for (const auto &c : cases) {
            time->setDateTime(c.at);
            QCOMPARE(dlg.request().to, ResetRequest::To::Timestamp);
            QVERIFY(clickAndWait(preview, previewed));
            QVERIFY2(dlg.plan().ok, qPrintable(dlg.plan().error));
            for (int p = 0; p < kPartitions; ++p) {
                const qint64 expected = c.end ? m_marks.value(p).second : m_marks.value(p).first;
                QCOMPARE(cell(dlg.table()->model(), p, ProgressTableModel::StartColumn), formatOffset(expected));
            }
        }
        QVERIFY2(dlg.summaryText().contains(QStringLiteral("0 records to copy")), qPrintable(dlg.summaryText()));
        QVERIFY2(dlg.statusText().contains(QStringLiteral("first records at or after")), qPrintable(dlg.statusText()));
    }

    void activeMemberRefusesTheReset()
    {
        ResetProgressDialog dlg(spec(QStringLiteral("reset job"), m_group));
        dlg.setConfirmHook([](const QString &) { return true; });
        dlg.show();
        // "Another machine runs the job": a member of the job's group.
        test::GroupMember other;
        QString error;
        QVERIFY2(other.start(test::sourceBootstrap(), m_group, m_topic, &error, QStringLiteral("other-machine")),
                 qPrintable(error));
        dlg.findChild<QRadioButton *>(QStringLiteral("resetLatest"))->setChecked(true);
        QSignalSpy previewed(&dlg, &ResetProgressDialog::previewFinished);
        QVERIFY(clickAndWait(dlg.findChild<QPushButton *>(QStringLiteral("previewReset")), previewed));
        QVERIFY2(dlg.plan().ok, qPrintable(dlg.plan().error));
        QCOMPARE(dlg.plan().members.size(), 1);
        QVERIFY2(dlg.summaryText().contains(QStringLiteral("1 active member")), qPrintable(dlg.summaryText()));
        QCOMPARE(cell(dlg.table()->model(), 0, ProgressTableModel::StartColumn), formatOffset(m_marks.value(0).second));

        QSignalSpy reset(&dlg, &ResetProgressDialog::resetFinished);
        QVERIFY(clickAndWait(dlg.findChild<QPushButton *>(QStringLiteral("applyReset")), reset));
        QCOMPARE(reset.last().at(0).toBool(), false);
        const QString refusal = reset.last().at(1).toString();
        QVERIFY2(refusal.startsWith(QStringLiteral("Reset refused: group ") + m_group) &&
                     refusal.contains(QStringLiteral("1 active member")) &&
                     refusal.contains(QStringLiteral("other-machine")),
                 qPrintable(refusal));
        // Shown in the dialog, as the engine words it.
        auto *status = dlg.findChild<QLabel *>(QStringLiteral("resetStatus"));
        QCOMPARE(status->text(), refusal);
        QVERIFY(status->isVisible());
        // Nothing was written.
        const QMap<int, qint64> committed = committedOffsets(m_group, m_topic, &error);
        for (int p = 0; p < kPartitions; ++p)
            QCOMPARE(committed.value(p), m_marks.value(p).first);
        other.close();
    }

    void aResultAfterCloseIsDropped()
    {
        auto *dlg = new ResetProgressDialog(spec(QStringLiteral("reset job"), m_group));
        dlg->show();
        QTest::mouseClick(dlg->findChild<QPushButton *>(QStringLiteral("previewReset")), Qt::LeftButton);
        QVERIFY(dlg->isBusy());
        delete dlg; // never waits for the call under way
        // The call finishes on the pool and finds no dialog.
        QTest::qWait(3000);
    }

    void unavailableWhileThisWindowRunsTheJob()
    {
        // Its own group: the job commits as it runs.
        const QString group = test::uniqueName(QStringLiteral("mirrordesk-reset-run"));
        MainWindow window;
        window.show();
        QAction *action = window.resetProgressAction();
        QVERIFY(action);
        QVERIFY(!action->isEnabled()); // no job selected
        auto *job = new MirrorJob(spec(QStringLiteral("reset running"), group, StartPosition::Earliest));
        window.addJob(job);
        QVERIFY(action->isEnabled());
        ResetProgressDialog *dlg = window.resetSelectedJobProgress();
        QVERIFY(dlg);
        QVERIFY(dlg->blockedReason().isEmpty());
        QCOMPARE(window.openResetProgress(job->spec()), dlg); // one per job group

        job->start();
        QTRY_VERIFY_WITH_TIMEOUT(job->isRunning() && !action->isEnabled(), 20000);
        QVERIFY2(action->toolTip().contains(QStringLiteral("runs in this window")), qPrintable(action->toolTip()));
        QVERIFY(!window.resetSelectedJobProgress());
        // The open dialog follows: Reset unavailable, the reason shown.
        QTRY_VERIFY(!dlg->blockedReason().isEmpty());
        auto *blocked = dlg->findChild<QLabel *>(QStringLiteral("resetBlocked"));
        QVERIFY(blocked->isVisible());
        QVERIFY(!dlg->findChild<QPushButton *>(QStringLiteral("applyReset"))->isEnabled());
        // Preview stays available: it only reads.
        QSignalSpy previewed(dlg, &ResetProgressDialog::previewFinished);
        QVERIFY(clickAndWait(dlg->findChild<QPushButton *>(QStringLiteral("previewReset")), previewed));
        QVERIFY(!dlg->findChild<QPushButton *>(QStringLiteral("applyReset"))->isEnabled());

        job->stop();
        QTRY_VERIFY_WITH_TIMEOUT(!job->isRunning() && action->isEnabled(), 30000);
        QTRY_VERIFY(dlg->blockedReason().isEmpty());
        QVERIFY(!blocked->isVisible());
        dlg->close();
    }
};

QTEST_MAIN(TestResetProgress)
#include "tst_resetprogress.moc"
