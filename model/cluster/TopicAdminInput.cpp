#include "model/cluster/TopicAdminInput.h"

#include <QCoreApplication>

namespace md {

namespace {
constexpr int kMaxTopicNameLength = 249;

bool legalTopicChar(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'.' || u == u'_' ||
           u == u'-';
}

QString tr(const char *text)
{
    return QCoreApplication::translate("md::TopicAdminInput", text);
}
} // namespace

QString topicNameProblem(const QString &name)
{
    if (name.isEmpty())
        return tr("The topic name is empty.");
    if (name == QLatin1String(".") || name == QLatin1String(".."))
        return tr("A topic cannot be named \".\" or \"..\".");
    if (name.size() > kMaxTopicNameLength)
        return tr("The topic name has %1 characters; Kafka allows at most %2.")
            .arg(name.size())
            .arg(kMaxTopicNameLength);
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name.at(i);
        if (!legalTopicChar(c)) {
            const QString shown = c.isSpace() ? tr("a space") : (QLatin1Char('\'') + c + QLatin1Char('\''));
            return tr("The topic name contains %1 at position %2; only ASCII letters, digits, '.', '_' and '-' are "
                      "allowed.")
                .arg(shown)
                .arg(i + 1);
        }
    }
    return {};
}

bool topicNameHasMetricCollisionRisk(const QString &name)
{
    return name.contains(QLatin1Char('.')) && name.contains(QLatin1Char('_'));
}

ParsedConfigs parseConfigLines(const QString &text)
{
    ParsedConfigs out;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        const QString where = tr("line %1").arg(i + 1);
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq < 0) {
            out.problems.append(where + QStringLiteral(": ") + tr("\"%1\" is not key=value").arg(line));
            continue;
        }
        const QString key = line.left(eq).trimmed();
        const QString value = line.mid(eq + 1).trimmed();
        if (key.isEmpty()) {
            out.problems.append(where + QStringLiteral(": ") + tr("the config name before '=' is empty"));
            continue;
        }
        bool keyOk = true;
        for (QChar c : key)
            keyOk = keyOk &&
                    (c.isLetterOrNumber() || c == QLatin1Char('.') || c == QLatin1Char('_') || c == QLatin1Char('-'));
        if (!keyOk) {
            out.problems.append(where + QStringLiteral(": ") + tr("\"%1\" is not a config name").arg(key));
            continue;
        }
        if (out.configs.contains(key)) {
            out.problems.append(where + QStringLiteral(": ") + tr("\"%1\" is given twice").arg(key));
            continue;
        }
        out.configs.insert(key, value);
    }
    return out;
}

} // namespace md
