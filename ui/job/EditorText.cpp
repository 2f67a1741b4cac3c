#include "ui/job/EditorText.h"

#include "model/profile/ProfileSupport.h"

#include <QObject>
#include <QPlainTextEdit>

namespace md::editor_text {

QPlainTextEdit *linesEdit(QWidget *parent, const QString &placeholder)
{
    auto *e = new QPlainTextEdit(parent);
    e->setPlaceholderText(placeholder);
    e->setTabChangesFocus(true);
    e->setFixedHeight(e->fontMetrics().lineSpacing() * 4 + 12);
    return e;
}

QStringList lines(const QPlainTextEdit *e)
{
    QStringList out;
    for (const QString &l : e->toPlainText().split(QLatin1Char('\n'))) {
        if (!l.trimmed().isEmpty())
            out.append(l.trimmed());
    }
    return out;
}

QString mapText(const QMap<QString, QString> &m)
{
    QStringList out;
    for (auto it = m.begin(); it != m.end(); ++it)
        out.append(it.key() + QLatin1Char('=') + it.value());
    return out.join(QLatin1Char('\n'));
}

// "key=value" per line; a line without '=' is reported (by line number, never
// by value: it may be a secret).
QMap<QString, QString> parseMap(const QPlainTextEdit *e, QString *problem)
{
    QMap<QString, QString> out;
    const QStringList all = e->toPlainText().split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < all.size(); ++i) {
        const QString l = all.at(i).trimmed();
        if (l.isEmpty() || l.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype eq = l.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            if (problem->isEmpty())
                *problem = QObject::tr("line %1: expected property=value").arg(i + 1);
            continue;
        }
        out.insert(l.left(eq).trimmed(), l.mid(eq + 1).trimmed());
    }
    return out;
}

QString timestampText(const QDateTime &t)
{
    return t.isValid() ? profile_detail::formatTimestamp(t) : QString();
}

// Key paths may name an element or a map entry: "topics.include[2]", "source.properties[\"x\"]".
QString fieldPath(const QString &keyPath)
{
    const qsizetype bracket = keyPath.indexOf(QLatin1Char('['));
    return bracket < 0 ? keyPath : keyPath.left(bracket);
}

} // namespace md::editor_text
