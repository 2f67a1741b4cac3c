#pragma once

#include <QObject>
#include <QStringList>

namespace md {

// The recently opened or saved profiles, newest first, kept in the settings
// (paths only: nothing of a profile's contents).
class RecentFiles final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RecentFiles)
public:
    static constexpr int MaxFiles = 10;

    explicit RecentFiles(QObject *parent = nullptr);

    QStringList files() const;
    void add(const QString &path);
    void remove(const QString &path);
    void clear();

Q_SIGNALS:
    void changed();

private:
    void store(const QStringList &files);
};

} // namespace md
