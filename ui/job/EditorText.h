#pragma once

// The job editor's text conventions: lists one per line, properties as
// key=value lines, timestamps in the profile's format, and the field a key
// path belongs to.

#include <QDateTime>
#include <QMap>
#include <QString>
#include <QStringList>

class QPlainTextEdit;
class QWidget;

namespace md::editor_text {

QPlainTextEdit *linesEdit(QWidget *parent, const QString &placeholder); // a few lines high, Tab leaves it
QStringList lines(const QPlainTextEdit *e);                             // trimmed, empty lines left out
QString mapText(const QMap<QString, QString> &m);                       // key=value per line
QMap<QString, QString> parseMap(const QPlainTextEdit *e, QString *problem);
QString timestampText(const QDateTime &t); // "" for an invalid time
QString fieldPath(const QString &keyPath); // "topics.include[2]" -> "topics.include"

} // namespace md::editor_text
