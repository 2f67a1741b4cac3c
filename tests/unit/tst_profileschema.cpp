// The profile's schema table (model/profile/ProfileSchema.cpp) against everything it
// drives: docs/PROFILE.md lists exactly its keys with its types, defaults and
// ranges; its defaults are the reader's; its ranges and keywords are what the
// reader accepts; the writer writes only its keys, in its order, and all of them.

#include "JobProfileTestUtil.h"
#include "model/profile/ProfileSchema.h"
#include "model/profile/ProfileSupport.h"

#include <QFile>
#include <QHash>
#include <QJsonObject>
#include <QSet>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <utility>

using namespace md;
using namespace md::test;
namespace schema = md::profile_schema;

namespace {

const QString kDoc = QStringLiteral(MIRRORDESK_SOURCE_DIR "/docs/PROFILE.md");
const QString kExpectedDoc = QStringLiteral(MIRRORDESK_BINARY_DIR "/PROFILE.keys.md");

// One row of docs/PROFILE.md's key table: key, type, default, values, meaning.
using Row = QStringList;

QString code(const QString &s)
{
    return s.isEmpty() ? QString() : QLatin1Char('`') + s + QLatin1Char('`');
}

Row rowFor(const schema::Key &k)
{
    const schema::Field &f = *k.field;
    QString type = schema::typeName(f.type);
    if (f.required)
        type += QStringLiteral(", required");
    if (f.secret)
        type += QStringLiteral(", secret");
    const QString def = schema::text(f.defaultValue);
    QStringList values;
    if (f.type == schema::Type::Integer || f.type == schema::Type::Version)
        values << QStringLiteral("%1 to %2").arg(f.min).arg(f.max);
    for (const QString &v : schema::allowedValues(f))
        values << code(v);
    if (f.type == schema::Type::Choice) {
        for (const QString &c : schema::childKeys(k.path))
            values << code(QStringLiteral("{ \"%1\": ... }").arg(c));
    }
    if (f.anyCase)
        values.last() += QStringLiteral(" (any letter case)");
    return {code(k.path), type, def.startsWith(QLatin1Char('(')) ? def : code(def), values.join(QStringLiteral(", ")),
            schema::text(f.help)};
}

QString rowText(const Row &r)
{
    return QStringLiteral("| ") + r.join(QStringLiteral(" | ")) + QStringLiteral(" |");
}

QString expectedTable()
{
    QStringList lines = {QStringLiteral("| Key | Type | Default | Values | Meaning |"),
                         QStringLiteral("|-----|------|---------|--------|---------|")};
    for (const schema::Key &k : schema::keys())
        lines << rowText(rowFor(k));
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

// The rows between the doc's markers, by key, in the doc's order.
QList<Row> docRows(QString *error)
{
    QFile f(kDoc);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1").arg(kDoc);
        return {};
    }
    const QString text = QString::fromUtf8(f.readAll());
    const qsizetype begin = text.indexOf(QLatin1String("<!-- keys:begin"));
    const qsizetype end = text.indexOf(QLatin1String("<!-- keys:end"));
    if (begin < 0 || end < begin) {
        *error = QStringLiteral("docs/PROFILE.md has no <!-- keys:begin --> ... <!-- keys:end --> section");
        return {};
    }
    QList<Row> rows;
    const QStringList lines = text.mid(begin, end - begin).split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        if (!line.startsWith(QLatin1String("| `")))
            continue; // the header, the rule, the markers
        QStringList cells = line.mid(1, line.size() - 2).split(QLatin1Char('|'));
        for (QString &c : cells)
            c = c.trimmed();
        rows << cells;
    }
    return rows;
}

// Every key path in written JSON text, in the order written; map entries left out.
QStringList writtenPaths(const QByteArray &json)
{
    const profile_detail::KeyPositions pos = profile_detail::scanKeyPositions(json);
    QList<std::pair<profile_detail::TextPosition, QString>> order;
    for (auto it = pos.values.begin(); it != pos.values.end(); ++it) {
        if (it.key().isEmpty() || it.key().contains(QLatin1Char('[')))
            continue;
        // "source.properties.client.rack": an entry of a property map, not a key.
        const QStringList parts = it.key().split(QLatin1Char('.'));
        const bool inMap = parts.size() > 2 && parts.at(1).endsWith(QLatin1String("roperties"));
        if (!inMap)
            order.append({it.value(), it.key()});
    }
    std::sort(order.begin(), order.end(), [](const auto &a, const auto &b) {
        return a.first.line != b.first.line ? a.first.line < b.first.line : a.first.column < b.first.column;
    });
    QStringList out;
    for (const auto &[p, path] : order)
        out << path;
    return out;
}

QList<ProfileIssue> issuesAt(const QList<ProfileIssue> &issues, const QString &path)
{
    QList<ProfileIssue> out;
    for (const ProfileIssue &i : issues)
        if (i.isError() && i.keyPath == path)
            out << i;
    return out;
}

} // namespace

class TstProfileSchema final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tableTextFitsAMarkdownTable()
    {
        for (const schema::Key &k : schema::keys()) {
            for (const QString &cell : rowFor(k)) {
                QVERIFY2(!cell.contains(QLatin1Char('|')) && !cell.contains(QLatin1Char('\n')) &&
                             !cell.contains(QLatin1Char('<')),
                         qPrintable(k.path + QStringLiteral(": ") + cell));
            }
            QVERIFY2(!k.field->help.empty(), qPrintable(k.path + QStringLiteral(" has no help text")));
        }
    }

    void docListsEveryKeyAsTheTableDoes()
    {
        QString error;
        const QList<Row> rows = docRows(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QFile expected(kExpectedDoc);
        QVERIFY(expected.open(QIODevice::WriteOnly | QIODevice::Truncate));
        expected.write(expectedTable().toUtf8());
        expected.close();
        const QString regenerate = QStringLiteral(" (the table as it should be: %1)").arg(kExpectedDoc);

        QHash<QString, Row> byKey;
        QStringList docOrder;
        for (const Row &r : rows) {
            QVERIFY2(r.size() == 5, qPrintable(QStringLiteral("a row without 5 cells: ") + r.join(QLatin1Char('|'))));
            const QString key = r.first().mid(1, r.first().size() - 2);
            QVERIFY2(schema::find(key),
                     qPrintable(QStringLiteral("docs/PROFILE.md has %1, which the schema table does not").arg(key)));
            QVERIFY2(!byKey.contains(key), qPrintable(QStringLiteral("docs/PROFILE.md lists %1 twice").arg(key)));
            byKey.insert(key, r);
            docOrder << key;
        }
        const QStringList columns = {QStringLiteral("key"), QStringLiteral("type"), QStringLiteral("default"),
                                     QStringLiteral("values"), QStringLiteral("meaning")};
        QStringList tableOrder;
        for (const schema::Key &k : schema::keys()) {
            tableOrder << k.path;
            QVERIFY2(byKey.contains(k.path),
                     qPrintable(QStringLiteral("docs/PROFILE.md lacks %1").arg(k.path) + regenerate));
            const Row want = rowFor(k);
            const Row have = byKey.value(k.path);
            for (qsizetype c = 1; c < want.size(); ++c) {
                QVERIFY2(have.at(c) == want.at(c),
                         qPrintable(QStringLiteral("%1: the %2 is \"%3\" in docs/PROFILE.md, \"%4\" in the table")
                                        .arg(k.path, columns.at(c), have.at(c), want.at(c)) +
                                    regenerate));
            }
        }
        QCOMPARE(docOrder, tableOrder);
    }

    // Writing a key's documented default changes nothing: the table's default is the reader's.
    void explicitDefaultChangesNothing_data()
    {
        QTest::addColumn<QString>("path");
        for (const schema::Key &k : schema::keys()) {
            if (!schema::defaultJson(*k.field).isUndefined())
                QTest::newRow(qPrintable(k.path)) << k.path;
        }
    }

    void explicitDefaultChangesNothing()
    {
        QFETCH(QString, path);
        const QJsonValue def = schema::defaultJson(schema::field(path));
        QList<ProfileIssue> withoutIssues;
        QList<ProfileIssue> withIssues;
        const JobProfile without =
            JobProfile::fromJson(profileWith(path, QJsonValue(QJsonValue::Undefined)), QString(), &withoutIssues);
        const JobProfile with = JobProfile::fromJson(profileWith(path, def), QString(), &withIssues);
        // The same issues either way (a missing source.alias is an error with prefix naming either way).
        auto problems = [](const QList<ProfileIssue> &issues) {
            QStringList out;
            for (const ProfileIssue &i : issues)
                out << i.keyPath + QStringLiteral(": ") + i.message;
            return out;
        };
        QCOMPARE(problems(withIssues), problems(withoutIssues));
        QVERIFY2(with == without, qPrintable(QString::fromUtf8(with.toJson()) + QStringLiteral("\nvs.\n") +
                                             QString::fromUtf8(without.toJson())));
    }

    // Each number key: its minimum and maximum are accepted, one past either is not.
    void rangesAreTheReaders_data()
    {
        QTest::addColumn<QString>("path");
        for (const schema::Key &k : schema::keys()) {
            if (k.field->type == schema::Type::Integer)
                QTest::newRow(qPrintable(k.path)) << k.path;
        }
    }

    void rangesAreTheReaders()
    {
        QFETCH(QString, path);
        const schema::Field &f = schema::field(path);
        auto errorsWith = [&](double v) {
            QList<ProfileIssue> issues;
            // stop.records only counts inside a stop object: profileWith builds it.
            JobProfile::fromJson(profileWith(path, v), QString(), &issues);
            return issuesAt(issues, path);
        };
        QVERIFY2(errorsWith(double(f.min)).isEmpty(), qPrintable(describe(errorsWith(double(f.min)))));
        QVERIFY2(errorsWith(double(f.max)).isEmpty(), qPrintable(describe(errorsWith(double(f.max)))));
        const double above = f.max < schema::MaxJsonInteger ? double(f.max + 1) : std::nextafter(double(f.max), 1e300);
        const QList<ProfileIssue> low = errorsWith(double(f.min - 1));
        const QList<ProfileIssue> high = errorsWith(above);
        QCOMPARE(low.size(), 1);
        QVERIFY2(low.first().message.endsWith(QStringLiteral("must be at least %1").arg(f.min)),
                 qPrintable(low.first().toString()));
        QCOMPARE(high.size(), 1);
        QVERIFY2(high.first().message.endsWith(QStringLiteral("must be at most %1").arg(f.max)),
                 qPrintable(high.first().toString()));
    }

    // Each keyword key: every allowed value is read, anything else is refused naming them all.
    void keywordsAreTheReaders_data()
    {
        QTest::addColumn<QString>("path");
        for (const schema::Key &k : schema::keys()) {
            if (k.field->type == schema::Type::Keyword || k.field->type == schema::Type::Choice)
                QTest::newRow(qPrintable(k.path)) << k.path;
        }
    }

    void keywordsAreTheReaders()
    {
        QFETCH(QString, path);
        const schema::Field &f = schema::field(path);
        for (const QString &v : schema::allowedValues(f)) {
            QList<ProfileIssue> issues;
            const JobProfile p = JobProfile::fromJson(profileWith(path, v), QString(), &issues);
            QVERIFY2(issuesAt(issues, path).isEmpty(), qPrintable(describe(issues)));
            // Read, not ignored: written back, the value is there. A key written
            // only when it is not its default (acls.mode) leaves its default out.
            const bool written = p.toJson().contains(QByteArray(QByteArray("\"") + v.toUtf8() + "\""));
            QVERIFY2(written || schema::defaultJson(f) == QJsonValue(v), qPrintable(v));
        }
        // Another letter case is read only where the table says so.
        const QString first = schema::allowedValues(f).first();
        const QString otherCase = first.toUpper() == first ? first.toLower() : first.toUpper();
        QList<ProfileIssue> caseIssues;
        JobProfile::fromJson(profileWith(path, otherCase), QString(), &caseIssues);
        QCOMPARE(issuesAt(caseIssues, path).isEmpty(), f.anyCase);

        QList<ProfileIssue> issues;
        JobProfile::fromJson(profileWith(path, QStringLiteral("bogus")), QString(), &issues);
        const QList<ProfileIssue> errors = issuesAt(issues, path);
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().message.startsWith(
                     QStringLiteral("unknown %1 \"bogus\" (expected ").arg(schema::text(f.noun))),
                 qPrintable(errors.first().toString()));
        for (const QString &v : schema::allowedValues(f))
            QVERIFY2(errors.first().message.contains(v), qPrintable(errors.first().toString()));
    }

    // The writer writes the table's keys only, each object's keys in the table's
    // order, and (over these profiles) every key of the table.
    void writerFollowsTheTable()
    {
        QList<JobProfile> profiles;
        JobProfile full = fullProfile();
        profiles << full;
        JobProfile other = full;
        other.source.producerProperties = {{QStringLiteral("linger.ms"), QStringLiteral("5")}};
        other.target = other.source;
        other.target.alias = QStringLiteral("dr");
        other.source.registryUsername.clear(); // bearer here, basic on the target: every registry key written
        other.source.registryPassword.clear();
        other.source.registryToken = QStringLiteral("${env:EU_REGISTRY_TOKEN}");
        other.stop = StopCondition::AfterRecords;
        other.stopAfterRecords = 1000;
        other.delivery = DeliveryGuarantee::ExactlyOnce;
        other.offsetMap = false;
        other.offsetMapTopic = QStringLiteral("map");
        profiles << other;

        QStringList tableOrder;
        for (const schema::Key &k : schema::keys())
            tableOrder << k.path;
        QSet<QString> seen;
        for (const JobProfile &p : std::as_const(profiles)) {
            const QStringList written = writtenPaths(p.toJson());
            qsizetype last = -1;
            for (const QString &path : written) {
                const qsizetype at = tableOrder.indexOf(path);
                QVERIFY2(at >= 0,
                         qPrintable(QStringLiteral("the writer wrote %1, which the table does not have").arg(path)));
                QVERIFY2(at > last, qPrintable(QStringLiteral("%1 is written out of the table's order").arg(path)));
                last = at;
                seen.insert(path);
            }
        }
        for (const QString &path : std::as_const(tableOrder)) {
            // start.timestamp and stop.timestamp are in the full profile; stop.records in the other.
            QVERIFY2(seen.contains(path), qPrintable(QStringLiteral("%1 is never written").arg(path)));
        }
    }

    // Every key the table has is known to the reader: none of them warns as unknown.
    void readerKnowsEveryKey()
    {
        QList<ProfileIssue> issues;
        JobProfile::fromJson(fullProfile().toJson(), QString(), &issues);
        for (const ProfileIssue &i : std::as_const(issues))
            QVERIFY2(!i.message.startsWith(QLatin1String("unknown key")), qPrintable(i.toString()));
        QCOMPARE(schema::childKeys(QString()).first(), QStringLiteral("mirrordesk"));
        QCOMPARE(schema::childKeys(QStringLiteral("target")), schema::childKeys(QStringLiteral("source")));
        QVERIFY(schema::find(QStringLiteral("target.sasl.password"))->secret);
        QVERIFY(!schema::find(QStringLiteral("topics.include[0]")));
    }

    // childKeys (listed once with the index) are the keys one level under a
    // path, in table order; anything that is not an object has none.
    void childKeysAreTheKeysOneLevelDown()
    {
        QStringList paths{QString(),
                          QStringLiteral("*"),
                          QStringLiteral("*.sasl"),
                          QStringLiteral("source."),
                          QStringLiteral("topics.include[0]"),
                          QStringLiteral("nope")};
        for (const schema::Key &k : schema::keys())
            paths << k.path;
        for (const QString &path : std::as_const(paths)) {
            const QString prefix = path.isEmpty() ? QString() : path + QLatin1Char('.');
            QStringList expected;
            for (const schema::Key &k : schema::keys()) {
                if (k.path.startsWith(prefix) && !k.path.mid(prefix.size()).contains(QLatin1Char('.')))
                    expected << k.path.mid(prefix.size());
            }
            QCOMPARE(schema::childKeys(path), expected);
        }
        QCOMPARE(schema::childKeys(QStringLiteral("source.sasl")),
                 (QStringList{QStringLiteral("mechanism"), QStringLiteral("username"), QStringLiteral("password")}));
    }
};

QTEST_GUILESS_MAIN(TstProfileSchema)
#include "tst_profileschema.moc"
