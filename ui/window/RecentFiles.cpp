#include "ui/window/RecentFiles.h"

#include "model/session/AppSettings.h"

#include <QFileInfo>

namespace md {

RecentFiles::RecentFiles(QObject *parent) : QObject(parent)
{
}

QStringList RecentFiles::files() const
{
    return AppSettings().recentFiles();
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
    AppSettings().setRecentFiles(files);
    Q_EMIT changed();
}

} // namespace md
