#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QStringList>
#include <QTextStream>

#include <optional>

namespace md {

// One (sub)command's command line, the same way for every command:
//  - `--name value` and `--name=value`, options before or after the positional
//    arguments, `--` ends the options; single-dash words (`-bogus`) are long options;
//  - `-h`/`--help` prints the command's usage to stdout: exit 0;
//  - an unknown option (named as typed), a missing option value, or a missing or
//    extra positional argument prints "mirrordesk <command>: <problem>" and the
//    usage to stderr: exit 2.
//
//   CommandLine cli(QStringLiteral("verify"), QStringLiteral("FILE.mirrorjob [--topic REGEX]"));
//   const QCommandLineOption topic(QStringLiteral("topic"), QStringLiteral("..."), QStringLiteral("REGEX"));
//   cli.addOption(topic);
//   cli.setArguments(QStringLiteral("profile"), 1, 1);
//   if (const std::optional<int> exitCode = cli.parse(args, out, err))
//       return *exitCode;
//   ... cli.value(topic), cli.arguments().first() ...
class CommandLine {
public:
    // `command` is the subcommand's name ("verify"), empty for mirrordesk itself;
    // `synopsis` what follows it on the usage line ("FILE.mirrorjob [--topic REGEX]").
    CommandLine(const QString &command, const QString &synopsis);
    CommandLine(const CommandLine &) = delete;
    CommandLine &operator=(const CommandLine &) = delete;

    // Paragraphs of the generated help between the usage line and the options, and after them.
    void setDescription(const QString &text) { m_description = text; }
    void setFooter(const QString &text) { m_footer = text; }
    // A hand-written help text instead of the generated one (it starts with "usage: ...").
    void setHelpText(const QString &text) { m_helpText = text; }

    // Listed in the help in this order, then -h, --help. The option's value name is
    // shown as given ("--topic REGEX"); a description may span several lines.
    void addOption(const QCommandLineOption &option);
    void addOptions(const QList<QCommandLineOption> &options);

    // The positional arguments: `what` names one in the messages ("no profile given",
    // "more than one profile given: a b"); maxCount < 0: no limit. Default: none.
    void setArguments(const QString &what, int minCount, int maxCount);

    // nullopt: parsed, go on. Otherwise the command is done (help shown, or a usage
    // error reported) and this is its exit code.
    std::optional<int> parse(const QStringList &args, QTextStream &out, QTextStream &err);

    // For the command's own checks of the parsed values: the problem and the usage
    // on `err`; returns 2.
    int usageError(QTextStream &err, const QString &problem) const;

    QString helpText() const;

    bool isSet(const QCommandLineOption &option) const { return m_parser.isSet(option); }
    QString value(const QCommandLineOption &option) const { return m_parser.value(option); }
    QStringList values(const QCommandLineOption &option) const { return m_parser.values(option); }
    QStringList arguments() const { return m_parser.positionalArguments(); }
    const QCommandLineParser &parser() const { return m_parser; }

private:
    QString program() const; // "mirrordesk verify"

    QString m_command;
    QString m_synopsis;
    QString m_description;
    QString m_footer;
    QString m_helpText;
    QList<QCommandLineOption> m_options;
    QString m_what;
    int m_minArgs = 0;
    int m_maxArgs = 0;
    QCommandLineOption m_help;
    QCommandLineParser m_parser;
};

} // namespace md
