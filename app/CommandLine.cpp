#include "app/CommandLine.h"

#include <algorithm>

namespace md {

namespace {

QString dashed(const QString &name)
{
    return (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
}

// "-o, --output FILE"
QString optionLabel(const QCommandLineOption &option)
{
    QStringList names;
    for (const QString &n : option.names())
        names.append(dashed(n));
    QString label = names.join(QStringLiteral(", "));
    if (!option.valueName().isEmpty())
        label += QLatin1Char(' ') + option.valueName();
    return label;
}

// The unknown option as the user typed it ("--frob", "-frob"), not as the parser
// reports it ("frob").
QString typedOption(const QStringList &args, const QString &name)
{
    for (const QString &a : args) {
        if (a == QLatin1String("--"))
            break;
        const QString bare = a.section(QLatin1Char('='), 0, 0);
        if (bare.startsWith(QLatin1Char('-')) && bare.mid(bare.startsWith(QLatin1String("--")) ? 2 : 1) == name)
            return bare;
    }
    return dashed(name);
}

} // namespace

CommandLine::CommandLine(const QString &command, const QString &synopsis)
    : m_command(command), m_synopsis(synopsis),
      m_help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("this text"))
{
    m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    m_parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
}

void CommandLine::addOption(const QCommandLineOption &option)
{
    m_options.append(option);
}

void CommandLine::addOptions(const QList<QCommandLineOption> &options)
{
    m_options.append(options);
}

void CommandLine::setArguments(const QString &what, int minCount, int maxCount)
{
    m_what = what;
    m_minArgs = minCount;
    m_maxArgs = maxCount;
}

std::optional<int> CommandLine::parse(const QStringList &args, QTextStream &out, QTextStream &err)
{
    m_parser.addOptions(m_options);
    m_parser.addOption(m_help);
    if (!m_parser.parse(QStringList{program()} + args)) {
        const QStringList unknown = m_parser.unknownOptionNames();
        if (!unknown.isEmpty())
            return usageError(err, QStringLiteral("unknown option ") + typedOption(args, unknown.first()));
        // "Missing value after '--topic'." in the style of the other problems.
        QString problem = m_parser.errorText();
        if (problem.endsWith(QLatin1Char('.')))
            problem.chop(1);
        if (!problem.isEmpty())
            problem[0] = problem.at(0).toLower();
        return usageError(err, problem);
    }
    if (m_parser.isSet(m_help)) {
        out << helpText();
        out.flush();
        return 0;
    }
    const QStringList positional = m_parser.positionalArguments();
    if (positional.size() < m_minArgs)
        return usageError(err, QStringLiteral("no %1 given").arg(m_what));
    if (m_maxArgs >= 0 && positional.size() > m_maxArgs) {
        if (m_maxArgs == 0)
            return usageError(err, QStringLiteral("unexpected argument ") + positional.first());
        return usageError(err,
                          QStringLiteral("more than one %1 given: %2").arg(m_what, positional.join(QLatin1Char(' '))));
    }
    return std::nullopt;
}

QString CommandLine::program() const
{
    return m_command.isEmpty() ? QStringLiteral("mirrordesk") : QStringLiteral("mirrordesk ") + m_command;
}

int CommandLine::usageError(QTextStream &err, const QString &problem) const
{
    err << program() << ": " << problem << '\n' << helpText();
    err.flush();
    return 2;
}

QString CommandLine::helpText() const
{
    if (!m_helpText.isEmpty())
        return m_helpText;
    QString text = QStringLiteral("usage: ") + program() + QLatin1Char(' ') + m_synopsis + QLatin1Char('\n');
    if (!m_description.isEmpty())
        text += QLatin1Char('\n') + m_description +
                (m_description.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("\n"));

    QList<QCommandLineOption> listed;
    for (const QCommandLineOption &o : m_options) {
        if (!(o.flags() & QCommandLineOption::HiddenFromHelp))
            listed.append(o);
    }
    listed.append(m_help);
    qsizetype width = 0;
    for (const QCommandLineOption &o : std::as_const(listed))
        width = std::max(width, optionLabel(o).size());
    width = std::max<qsizetype>(width + 2, 21);
    text += QLatin1Char('\n');
    for (const QCommandLineOption &o : std::as_const(listed)) {
        const QStringList lines = o.description().split(QLatin1Char('\n'));
        text += QStringLiteral("  ") + optionLabel(o).leftJustified(width) + lines.first() + QLatin1Char('\n');
        for (qsizetype i = 1; i < lines.size(); ++i)
            text += QString(width + 2, QLatin1Char(' ')) + lines.at(i) + QLatin1Char('\n');
    }
    if (!m_footer.isEmpty())
        text +=
            QLatin1Char('\n') + m_footer + (m_footer.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("\n"));
    return text;
}

} // namespace md
