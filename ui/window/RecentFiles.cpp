#include "ui/window/RecentFiles.h"

#include <QFileInfo>
#include <QSettings>

namespace md {

namespace {
const QString kKey = QStringLiteral("documents/recentFiles");
}

RecentFiles::RecentFiles(QObject *parent) : QObject(parent)
{
}

QStringList RecentFiles::files() const
{
    return QSettings().value(kKey).toStringList();
}

void RecentFiles::add(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > MaxFiles)
        list.removeLast();
    store(list);
}

void RecentFiles::remove(const QString &path)
{
    QStringList list = files();
    if (list.removeAll(QFileInfo(path).absoluteFilePath()) > 0)
        store(list);
}

void RecentFiles::clear()
{
    store({});
}

void RecentFiles::store(const QStringList &files)
{
    QSettings settings;
    settings.setValue(kKey, files);
    settings.sync();
    Q_EMIT changed();
}

} // namespace md
