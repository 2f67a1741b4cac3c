#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>

class QSettings;

namespace md {

// Every setting the application keeps between runs, with its key and its
// default in this one place (QSettings underneath; the keys are those of
// earlier versions, so nothing a user had is lost). Connections have their
// own store (ConnectionStore: secrets in the keychain); jobs are profile files.
class AppSettings final {
public:
    AppSettings();                                // the application's settings
    explicit AppSettings(const QString &iniPath); // a file of its own (tests)
    ~AppSettings();
    Q_DISABLE_COPY_MOVE(AppSettings)

    // File > Open Recent, newest first.
    QStringList recentFiles() const;
    void setRecentFiles(const QStringList &files); // written at once (another window reads it)

    // Desktop notifications of job trouble (Notifier); on unless turned off.
    bool notificationsEnabled() const;
    void setNotificationsEnabled(bool on);

    // The main window.
    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &geometry);
    QByteArray windowState() const; // toolbars and docks
    void setWindowState(const QByteArray &state);
    bool navigatorVisible() const; // shown unless hidden
    void setNavigatorVisible(bool visible);
    QByteArray jobColumns() const; // the job list's header
    void setJobColumns(const QByteArray &state);
    // The tabs open on each side of the work area (0 left, 1 right), by page key.
    bool hasOpenTabs() const; // saved at all: an empty list is a choice
    QStringList openTabs(int side) const;
    void setOpenTabs(int side, const QStringList &keys);
    // A named table's header and a named splitter's sizes, by object path
    // ("sourcePane.topicSplitter"); empty when never saved.
    QByteArray tableColumns(const QString &path) const;
    void setTableColumns(const QString &path, const QByteArray &state);
    QByteArray splitterSizes(const QString &path) const;
    void setSplitterSizes(const QString &path, const QByteArray &state);

    void sync();

private:
    std::unique_ptr<QSettings> m_settings;
};

} // namespace md
