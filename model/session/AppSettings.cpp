#include "model/session/AppSettings.h"

#include <QSettings>

namespace md {

namespace {

// The keys and defaults, once.
const auto kRecentFiles = QLatin1String("documents/recentFiles");
const auto kNotifications = QLatin1String("notifications/enabled");
constexpr bool kNotificationsDefault = true;
const auto kGeometry = QLatin1String("mainWindow/geometry");
const auto kState = QLatin1String("mainWindow/state");
const auto kNavigator = QLatin1String("mainWindow/navigator");
constexpr bool kNavigatorDefault = true;
const auto kJobColumns = QLatin1String("mainWindow/jobColumns");
const QLatin1String kTabs[] = {QLatin1String("mainWindow/tabs/left"), QLatin1String("mainWindow/tabs/right")};
const auto kColumns = QLatin1String("mainWindow/columns/");
const auto kSplitters = QLatin1String("mainWindow/splitters/");

QLatin1String tabsKey(int side)
{
    return kTabs[side == 1 ? 1 : 0];
}

QString under(QLatin1String prefix, const QString &path)
{
    return prefix + path;
}

} // namespace

AppSettings::AppSettings() : m_settings(std::make_unique<QSettings>())
{
}

AppSettings::AppSettings(const QString &iniPath)
    : m_settings(std::make_unique<QSettings>(iniPath, QSettings::IniFormat))
{
}

AppSettings::~AppSettings() = default;

QStringList AppSettings::recentFiles() const
{
    return m_settings->value(kRecentFiles).toStringList();
}

void AppSettings::setRecentFiles(const QStringList &files)
{
    m_settings->setValue(kRecentFiles, files);
    m_settings->sync();
}

bool AppSettings::notificationsEnabled() const
{
    return m_settings->value(kNotifications, kNotificationsDefault).toBool();
}

void AppSettings::setNotificationsEnabled(bool on)
{
    m_settings->setValue(kNotifications, on);
}

QByteArray AppSettings::windowGeometry() const
{
    return m_settings->value(kGeometry).toByteArray();
}

void AppSettings::setWindowGeometry(const QByteArray &geometry)
{
    m_settings->setValue(kGeometry, geometry);
}

QByteArray AppSettings::windowState() const
{
    return m_settings->value(kState).toByteArray();
}

void AppSettings::setWindowState(const QByteArray &state)
{
    m_settings->setValue(kState, state);
}

bool AppSettings::navigatorVisible() const
{
    return m_settings->value(kNavigator, kNavigatorDefault).toBool();
}

void AppSettings::setNavigatorVisible(bool visible)
{
    m_settings->setValue(kNavigator, visible);
}

QByteArray AppSettings::jobColumns() const
{
    return m_settings->value(kJobColumns).toByteArray();
}

void AppSettings::setJobColumns(const QByteArray &state)
{
    m_settings->setValue(kJobColumns, state);
}

bool AppSettings::hasOpenTabs() const
{
    return m_settings->contains(kTabs[0]) || m_settings->contains(kTabs[1]);
}

QStringList AppSettings::openTabs(int side) const
{
    return m_settings->value(tabsKey(side)).toStringList();
}

void AppSettings::setOpenTabs(int side, const QStringList &keys)
{
    m_settings->setValue(tabsKey(side), keys);
}

QByteArray AppSettings::tableColumns(const QString &path) const
{
    return m_settings->value(under(kColumns, path)).toByteArray();
}

void AppSettings::setTableColumns(const QString &path, const QByteArray &state)
{
    m_settings->setValue(under(kColumns, path), state);
}

QByteArray AppSettings::splitterSizes(const QString &path) const
{
    return m_settings->value(under(kSplitters, path)).toByteArray();
}

void AppSettings::setSplitterSizes(const QString &path, const QByteArray &state)
{
    m_settings->setValue(under(kSplitters, path), state);
}

void AppSettings::sync()
{
    m_settings->sync();
}

} // namespace md
