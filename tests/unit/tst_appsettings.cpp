// The application's settings (model/session/AppSettings.h): the defaults of
// a first run, every setting read back as written, and the keys of earlier
// versions (a renamed key would lose what every user had set: written here
// with plain QSettings, read through AppSettings).
#include "model/session/AppSettings.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace md;

class TstAppSettings final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString file(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }

private Q_SLOTS:
    void aFirstRunHasTheDefaults()
    {
        const AppSettings s(file("first.ini"));
        QVERIFY(s.recentFiles().isEmpty());
        QVERIFY(s.notificationsEnabled());
        QVERIFY(s.navigatorVisible());
        QVERIFY(s.windowGeometry().isEmpty());
        QVERIFY(s.windowState().isEmpty());
        QVERIFY(s.jobColumns().isEmpty());
        QVERIFY(!s.hasOpenTabs());
        QVERIFY(s.openTabs(0).isEmpty());
        QVERIFY(s.tableColumns(QStringLiteral("sourcePane.topics")).isEmpty());
        QVERIFY(s.splitterSizes(QStringLiteral("sourcePane.topicSplitter")).isEmpty());
    }

    void everySettingReadsBackAsWritten()
    {
        const QString path = file("roundtrip.ini");
        {
            AppSettings s(path);
            s.setRecentFiles({QStringLiteral("/p/a.mirrorjob"), QStringLiteral("/p/b.mirrorjob")});
            s.setNotificationsEnabled(false);
            s.setNavigatorVisible(false);
            s.setWindowGeometry("geometry");
            s.setWindowState("state");
            s.setJobColumns("jobs");
            s.setOpenTabs(0, {QStringLiteral("job:0")});
            s.setOpenTabs(1, {});
            s.setTableColumns(QStringLiteral("sourcePane.topics"), "columns");
            s.setSplitterSizes(QStringLiteral("targetPane.topicSplitter"), "sizes");
            s.sync();
        }
        const AppSettings s(path);
        QCOMPARE(s.recentFiles(), (QStringList{QStringLiteral("/p/a.mirrorjob"), QStringLiteral("/p/b.mirrorjob")}));
        QVERIFY(!s.notificationsEnabled());
        QVERIFY(!s.navigatorVisible());
        QCOMPARE(s.windowGeometry(), QByteArray("geometry"));
        QCOMPARE(s.windowState(), QByteArray("state"));
        QCOMPARE(s.jobColumns(), QByteArray("jobs"));
        QVERIFY(s.hasOpenTabs()); // an empty right side is saved too
        QCOMPARE(s.openTabs(0), QStringList{QStringLiteral("job:0")});
        QVERIFY(s.openTabs(1).isEmpty());
        QCOMPARE(s.tableColumns(QStringLiteral("sourcePane.topics")), QByteArray("columns"));
        QVERIFY(s.tableColumns(QStringLiteral("targetPane.topics")).isEmpty());
        QCOMPARE(s.splitterSizes(QStringLiteral("targetPane.topicSplitter")), QByteArray("sizes"));
    }

    void theKeysOfEarlierVersionsAreRead()
    {
        const QString path = file("earlier.ini");
        {
            QSettings q(path, QSettings::IniFormat);
            q.setValue(QStringLiteral("documents/recentFiles"), QStringList{QStringLiteral("/old.mirrorjob")});
            q.setValue(QStringLiteral("notifications/enabled"), false);
            q.setValue(QStringLiteral("mainWindow/geometry"), QByteArray("g"));
            q.setValue(QStringLiteral("mainWindow/state"), QByteArray("s"));
            q.setValue(QStringLiteral("mainWindow/jobColumns"), QByteArray("j"));
            q.setValue(QStringLiteral("mainWindow/navigator"), false);
            q.setValue(QStringLiteral("mainWindow/tabs/right"), QStringList{QStringLiteral("group:x")});
            q.setValue(QStringLiteral("mainWindow/columns/sourcePane.topics"), QByteArray("c"));
            q.setValue(QStringLiteral("mainWindow/splitters/sourcePane.topicSplitter"), QByteArray("p"));
        }
        const AppSettings s(path);
        QCOMPARE(s.recentFiles(), QStringList{QStringLiteral("/old.mirrorjob")});
        QVERIFY(!s.notificationsEnabled());
        QCOMPARE(s.windowGeometry(), QByteArray("g"));
        QCOMPARE(s.windowState(), QByteArray("s"));
        QCOMPARE(s.jobColumns(), QByteArray("j"));
        QVERIFY(!s.navigatorVisible());
        QVERIFY(s.hasOpenTabs());
        QCOMPARE(s.openTabs(1), QStringList{QStringLiteral("group:x")});
        QCOMPARE(s.tableColumns(QStringLiteral("sourcePane.topics")), QByteArray("c"));
        QCOMPARE(s.splitterSizes(QStringLiteral("sourcePane.topicSplitter")), QByteArray("p"));
    }
};

QTEST_GUILESS_MAIN(TstAppSettings)
#include "tst_appsettings.moc"
