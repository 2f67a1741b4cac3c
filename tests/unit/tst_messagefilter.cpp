// The message search's filter (engine/query/MessageFilter.h) on raw record bytes:
// contains (case-sensitive or not, ASCII and beyond), regular expressions,
// JSON path predicates, headers by name (duplicates, null values), null keys
// and values never matching, the timestamp range with inclusive ends, and
// compile errors that name the condition and the place.
#include "engine/query/MessageFilter.h"

#include <QTest>

#include <string>
#include <vector>

using namespace md;

namespace {

struct Rec {
    std::optional<std::string> key;
    std::optional<std::string> value;
    std::vector<RecordView::Header> headers;
    qint64 ts = 1000;

    RecordView view() const
    {
        RecordView r;
        r.keyNull = !key;
        if (key)
            r.key = *key;
        r.valueNull = !value;
        if (value)
            r.value = *value;
        r.timestampMs = ts;
        r.headers = headers.data();
        r.headerCount = int(headers.size());
        return r;
    }
};

FilterCondition cond(FilterCondition::Field field, FilterCondition::Match match, const QString &text,
                     bool caseSensitive = false, const QString &header = {})
{
    FilterCondition c;
    c.field = field;
    c.match = match;
    c.text = text;
    c.caseSensitive = caseSensitive;
    c.header = header;
    return c;
}

CompiledFilter compiled(const MessageFilter &f)
{
    QString error;
    auto c = CompiledFilter::compile(f, &error);
    if (!c)
        qFatal("filter did not compile: %s", qPrintable(error));
    return *c;
}

bool matches(const FilterCondition &c, const Rec &r)
{
    MessageFilter f;
    f.conditions = {c};
    return compiled(f).matches(r.view());
}

using F = FilterCondition::Field;
using M = FilterCondition::Match;

} // namespace

class TstMessageFilter final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void containsOnValueAndKey()
    {
        const Rec r{std::string("Order-17"), std::string("{\"status\":\"SHIPPED\"}"), {}};
        QVERIFY(matches(cond(F::Value, M::Contains, QStringLiteral("shipped")), r));
        QVERIFY(!matches(cond(F::Value, M::Contains, QStringLiteral("shipped"), true), r));
        QVERIFY(matches(cond(F::Value, M::Contains, QStringLiteral("SHIPPED"), true), r));
        QVERIFY(matches(cond(F::Key, M::Contains, QStringLiteral("order-1")), r));
        QVERIFY(!matches(cond(F::Key, M::Contains, QStringLiteral("order-2")), r));
        QVERIFY(!matches(cond(F::Key, M::Contains, QStringLiteral("SHIPPED")), r)); // the key, not the value
        // A needle at the very end and one longer than the field.
        QVERIFY(matches(cond(F::Key, M::Contains, QStringLiteral("-17")), r));
        QVERIFY(!matches(cond(F::Key, M::Contains, QStringLiteral("Order-17x")), r));
    }

    void containsBeyondAscii()
    {
        const Rec r{std::nullopt,
                    std::string("Gr\xc3\xbc\xc3\x9f"
                                "e aus M\xc3\x9cNCHEN"),
                    {}}; // "Grüße aus MÜNCHEN"
        QVERIFY(matches(cond(F::Value, M::Contains, QStringLiteral("m\u00fcnchen")), r));
        QVERIFY(!matches(cond(F::Value, M::Contains, QStringLiteral("m\u00fcnchen"), true), r));
        QVERIFY(matches(cond(F::Value, M::Contains, QStringLiteral("Gr\u00fc\u00dfe"), true), r));
        // ASCII folding never touches the bytes of a multi-byte sequence: "ü" is not "Ü" case-sensitively.
        QVERIFY(!matches(cond(F::Value, M::Contains, QStringLiteral("M\u00fcN"), true), r));
    }

    void nullNeverMatchesButEmptyContainsEmpty()
    {
        const Rec nulls{std::nullopt, std::nullopt, {}};
        QVERIFY(!matches(cond(F::Value, M::Contains, QString()), nulls));
        QVERIFY(!matches(cond(F::Key, M::Contains, QString()), nulls));
        QVERIFY(!matches(cond(F::Key, M::Regex, QStringLiteral(".*")), nulls));
        const Rec empty{std::string(), std::string(), {}};
        QVERIFY(matches(cond(F::Key, M::Contains, QString()), empty));
        QVERIFY(matches(cond(F::Value, M::Regex, QStringLiteral("^$")), empty));
    }

    void regex()
    {
        const Rec r{std::string("user-0042"), std::string("payment FAILED: card declined"), {}};
        QVERIFY(matches(cond(F::Key, M::Regex, QStringLiteral("^user-\\d{4}$")), r));
        QVERIFY(!matches(cond(F::Key, M::Regex, QStringLiteral("^user-\\d{3}$")), r));
        QVERIFY(matches(cond(F::Value, M::Regex, QStringLiteral("failed.*declined")), r));
        QVERIFY(!matches(cond(F::Value, M::Regex, QStringLiteral("failed.*declined"), true), r));
    }

    void jsonPathOnValueCountsNotJson()
    {
        const Rec json{std::nullopt, std::string(R"({"customer":{"id":42},"items":[{"sku":"B2"},{"sku":"A1"}]})"), {}};
        const Rec other{std::nullopt, std::string(R"({"customer":{"id":43},"items":[]})"), {}};
        const Rec text{std::nullopt, std::string("customer 42"), {}};
        MessageFilter f;
        f.conditions = {cond(F::Value, M::JsonPath, QStringLiteral("$.customer.id == 42 && $.items[*].sku == \"A1\""))};
        const CompiledFilter c = compiled(f);
        bool notJson = false;
        QVERIFY(c.matches(json.view(), &notJson));
        QVERIFY(!notJson);
        QVERIFY(!c.matches(other.view(), &notJson));
        QVERIFY(!notJson);
        QVERIFY(!c.matches(text.view(), &notJson));
        QVERIFY(notJson);
    }

    void headersByNameWithDuplicatesAndNulls()
    {
        Rec r{std::nullopt, std::string("x"), {}};
        r.headers = {{"trace", "abc", false}, {"source", {}, true}, {"source", "mobile-app", false}};
        QVERIFY(matches(cond(F::Header, M::Contains, QStringLiteral("mobile"), false, QStringLiteral("source")), r));
        QVERIFY(matches(cond(F::Header, M::Regex, QStringLiteral("^abc$"), false, QStringLiteral("trace")), r));
        QVERIFY(!matches(cond(F::Header, M::Contains, QStringLiteral("abc"), false, QStringLiteral("source")), r));
        QVERIFY(!matches(cond(F::Header, M::Contains, QString(), false, QStringLiteral("missing")), r));
        // The header name is exact (Kafka header keys are case-sensitive).
        QVERIFY(!matches(cond(F::Header, M::Contains, QStringLiteral("abc"), false, QStringLiteral("Trace")), r));
        Rec onlyNull{std::nullopt, std::string("x"), {{"source", {}, true}}};
        QVERIFY(!matches(cond(F::Header, M::Contains, QString(), false, QStringLiteral("source")), onlyNull));
    }

    void everyConditionMustHold()
    {
        MessageFilter f;
        f.conditions = {cond(F::Key, M::Contains, QStringLiteral("a")),
                        cond(F::Value, M::Contains, QStringLiteral("b"))};
        const CompiledFilter c = compiled(f);
        QVERIFY(c.matches(Rec{std::string("a"), std::string("b"), {}}.view()));
        QVERIFY(!c.matches(Rec{std::string("a"), std::string("c"), {}}.view()));
        QVERIFY(!c.matches(Rec{std::string("c"), std::string("b"), {}}.view()));
    }

    void timeRangeIsInclusive()
    {
        MessageFilter f;
        f.fromMs = 1000;
        f.toMs = 2000;
        const CompiledFilter c = compiled(f);
        auto at = [](qint64 ts) {
            Rec r{std::nullopt, std::string("v"), {}};
            r.ts = ts;
            return r;
        };
        QVERIFY(!c.matches(at(999).view()));
        QVERIFY(c.matches(at(1000).view()));
        QVERIFY(c.matches(at(2000).view()));
        QVERIFY(!c.matches(at(2001).view()));
        MessageFilter open;
        open.fromMs = 1500;
        QVERIFY(compiled(open).matches(at(99999).view()));
        QVERIFY(!compiled(open).matches(at(1499).view()));
        QVERIFY(compiled(MessageFilter{}).matches(at(1).view())); // no filter: everything
    }

    void compileErrorsNameThePlace()
    {
        QString error;
        MessageFilter badRegex;
        badRegex.conditions = {cond(F::Value, M::Regex, QStringLiteral("ab(c"))};
        QVERIFY(!CompiledFilter::compile(badRegex, &error));
        QVERIFY2(error.contains(QLatin1String("value")) && error.contains(QLatin1String("regular expression")) &&
                     error.contains(QLatin1String("column")),
                 qPrintable(error));

        MessageFilter badPath;
        badPath.conditions = {cond(F::Key, M::Contains, QStringLiteral("k")),
                              cond(F::Value, M::JsonPath, QStringLiteral("$.a ==="))};
        QVERIFY(!CompiledFilter::compile(badPath, &error));
        QVERIFY2(error.startsWith(QLatin1String("condition 2 (value): JSON path:")) &&
                     error.contains(QLatin1String("column")),
                 qPrintable(error));

        MessageFilter noHeader;
        noHeader.conditions = {cond(F::Header, M::Contains, QStringLiteral("x"))};
        QVERIFY(!CompiledFilter::compile(noHeader, &error));
        QVERIFY2(error.contains(QLatin1String("header")), qPrintable(error));

        MessageFilter backwards;
        backwards.fromMs = 2000;
        backwards.toMs = 1000;
        QVERIFY(!CompiledFilter::compile(backwards, &error));
        QVERIFY2(error.contains(QLatin1String("time range")), qPrintable(error));
    }

    void onlyHeaderConditionsNeedHeaders()
    {
        MessageFilter f;
        f.conditions = {cond(F::Value, M::Contains, QStringLiteral("x"))};
        QVERIFY(!compiled(f).needsHeaders());
        f.conditions.append(cond(F::Header, M::Contains, QStringLiteral("x"), false, QStringLiteral("h")));
        QVERIFY(compiled(f).needsHeaders());
    }
};

QTEST_GUILESS_MAIN(TstMessageFilter)
#include "tst_messagefilter.moc"
