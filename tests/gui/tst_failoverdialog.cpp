// The GUI's "Fail Over Consumer Groups…" (FailoverDialog) on real brokers:
// a source topic with committed and aborted transactions (so source and
// target offsets differ), mirrored by the real `mirrordesk run`; a real group
// committed mid-way on the source. Preview shows the exact translation, Fail
// Over writes it to the same group on the target, and Kafka's own
// ConsoleConsumer in that group then reads first the record the group would
// have read next on the source. A group active on the target is refused.
#include "../integration/failover_support.h"

#include "model/tables/FailoverPlanModel.h"
#include "ui/dialogs/FailoverDialog.h"

#include <QAbstractItemModelTester>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace md;
using namespace md::test;

class TestFailoverDialog final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    static MirrorJobSpec specFor(const QString &topic, const QString &group)
    {
        MirrorJobSpec s;
        s.name = topic;
        s.source.alias = QStringLiteral("src");
        s.source.bootstrap = sourceBootstrap();
        s.target.alias = QStringLiteral("dst");
        s.target.bootstrap = targetBootstrap();
        s.include = {QRegularExpression::escape(topic)};
        s.naming = NamingPolicy::Prefix;
        s.groupId = QStringLiteral("mirrordesk-") + topic; // writeProfile's default group
        s.groupsInclude = {QRegularExpression::escape(group)};
        return s;
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        MD_REQUIRE_KAFKA_TOOLS();
        QVERIFY(QFile::exists(mirrordeskExe()));
        QVERIFY(m_dir.isValid());
    }

    void previewAndFailOver()
    {
        const QString topic = uniqueName(QStringLiteral("fo-gui"));
        const QString group = uniqueName(QStringLiteral("fo-gui-app"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        auto batch = [](int from, int n) {
            QList<TestRecord> r;
            for (int i = 0; i < n; ++i) {
                TestRecord t;
                t.value = QByteArray("v") + QByteArray::number(from + i);
                t.partition = 0;
                r.append(t);
            }
            return r;
        };
        // Source offsets: 0..29 records, 30 marker, 31..40 aborted, 41 marker, 42..71 records, 72 marker.
        QVERIFY2(produceTransactionalCommitted(sourceBootstrap(), topic, batch(0, 30), &error), qPrintable(error));
        QVERIFY2(produceTransactionalAborted(sourceBootstrap(), topic, batch(1000, 10), &error), qPrintable(error));
        QVERIFY2(produceTransactionalCommitted(sourceBootstrap(), topic, batch(30, 30), &error), qPrintable(error));
        {
            GroupMember app;
            QVERIFY2(app.start(sourceBootstrap(), group, topic, &error), qPrintable(error));
            QVERIFY2(app.commit({{0, 50}}, &error), qPrintable(error)); // next: v38 (offset 50)
        }
        ProfileSpec p;
        p.name = topic;
        p.topic = topic;
        const QString profile = writeProfile(m_dir.path(), topic + QStringLiteral(".mirrorjob"), p);
        const ExeResult run = runToTheEnd(profile);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));

        auto *dlg = new FailoverDialog(specFor(topic, group));
        QScopedPointer<FailoverDialog, QScopedPointerDeleteLater> guard(dlg);
        QAbstractItemModelTester tester(dlg->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        dlg->show();
        QVERIFY(!dlg->failoverButton()->isEnabled()); // Preview first
        QSignalSpy previewed(dlg, &FailoverDialog::previewFinished);
        dlg->preview();
        QVERIFY(previewed.wait(60000));
        QVERIFY2(previewed.last().at(0).toBool(), qPrintable(dlg->statusText()));
        QCOMPARE(dlg->model()->rowCount(), 1);
        const QModelIndex target = dlg->model()->index(0, FailoverPlanModel::TargetOffsetColumn);
        QCOMPARE(dlg->model()->data(target).toString(), QStringLiteral("38")); // 50 minus 12 markers and aborted
        QCOMPARE(dlg->model()->data(target, FailoverPlanModel::SortRole).toLongLong(), 38);
        QVERIFY2(dlg->summaryText().contains(QLatin1String("copied everything")), qPrintable(dlg->summaryText()));
        QVERIFY(dlg->failoverButton()->isEnabled());

        QString asked;
        dlg->setConfirmHook([&](const QString &text) {
            asked = text;
            return true;
        });
        QSignalSpy done(dlg, &FailoverDialog::failoverFinished);
        dlg->failover();
        QVERIFY(done.wait(60000));
        QVERIFY2(done.last().at(0).toBool(), qPrintable(done.last().at(1).toString()));
        QVERIFY(asked.contains(targetBootstrap()));
        const auto committed = committedOffsets(targetBootstrap(), group, QStringLiteral("src.") + topic, 1, &error);
        QVERIFY2(committed, qPrintable(error));
        QCOMPARE(committed->value(0), qint64(38));
        const auto read = consumeAsGroup(targetBootstrap(), QStringLiteral("src.") + topic, group, 1, &error);
        QVERIFY2(read && !read->isEmpty(), qPrintable(error));
        QCOMPARE(read->first().value, QStringLiteral("v38"));

        // Its consumers now run on the target: a second failover is refused for it.
        QTRY_COMPARE_WITH_TIMEOUT(previewed.size(), 2, 60000); // the dialog previews again after applying
        GroupMember onTarget;
        QVERIFY2(onTarget.start(targetBootstrap(), group, QStringLiteral("src.") + topic, &error), qPrintable(error));
        dlg->preview();
        QVERIFY(previewed.wait(60000));
        QVERIFY2(dlg->summaryText().contains(QLatin1String("Refused")), qPrintable(dlg->summaryText()));
        QVERIFY(!dlg->failoverButton()->isEnabled());
    }
};

QTEST_MAIN(TestFailoverDialog)
#include "tst_failoverdialog.moc"
