#pragma once

// Helpers shared by the MirrorMaker 2 import and export tests: the password
// that must never reach a written file, and the import result's unmapped
// keys listed for comparisons and failure messages or looked up one by one.

#include "model/mm2/Mm2Properties.h"

#include <QByteArray>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QString>
#include <QStringList>

namespace md::test {

inline const QString kSecret = QStringLiteral("s3cr3t-Pa55word!");

inline QStringList unmappedKeys(const Mm2ImportResult &r)
{
    QStringList keys;
    for (const Mm2Unmapped &u : r.unmapped)
        keys << u.key;
    return keys;
}

inline QString describeUnmapped(const Mm2ImportResult &r)
{
    QStringList lines;
    for (const Mm2Unmapped &u : r.unmapped)
        lines << u.toString();
    return lines.join(QLatin1Char('\n'));
}

// The unmapped entry for `key`, or null.
inline const Mm2Unmapped *findUnmapped(const Mm2ImportResult &r, const QString &key)
{
    for (const Mm2Unmapped &u : r.unmapped) {
        if (u.key == key)
            return &u;
    }
    return nullptr;
}

// Every file under `dir` that holds `needle`.
inline QStringList filesContaining(const QString &dir, const QByteArray &needle)
{
    QStringList hits;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        if (f.open(QIODevice::ReadOnly) && f.readAll().contains(needle))
            hits << f.fileName();
    }
    return hits;
}

} // namespace md::test
