// The options converted by name: every field of factord.v1.FactorOptions
// has exactly one conversion (a core table entry of its type, or a hand
// conversion), a bool whose core default is true can be sent as false, and
// every table option travels from the client's named options through the
// wire to the core member. A field the server cannot convert is INTERNAL.
#include "server/service/option_fields.h"

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>

#include "absl/strings/str_format.h"
#include "client/messages.h"
#include "core/solver/option_table.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "google/protobuf/dynamic_message.h"
#include "gtest/gtest.h"
#include "server/service/convert.h"

namespace factord::server {
namespace {

using google::protobuf::FieldDescriptor;

bool IsHandConverted(const std::string& name) {
  return std::find(std::begin(kHandConvertedFactorOptions),
                   std::end(kHandConvertedFactorOptions),
                   name) != std::end(kHandConvertedFactorOptions);
}

// The proto type a member of this type travels as.
template <typename T>
FieldDescriptor::CppType WireTypeOf(T FactorOptions::*) {
  if constexpr (std::is_same_v<T, bool>) return FieldDescriptor::CPPTYPE_BOOL;
  if constexpr (std::is_same_v<T, int>) return FieldDescriptor::CPPTYPE_INT32;
  if constexpr (std::is_same_v<T, int64_t>) {
    return FieldDescriptor::CPPTYPE_INT64;
  }
  if constexpr (std::is_same_v<T, double>) {
    return FieldDescriptor::CPPTYPE_DOUBLE;
  }
}

// Fails when a field is added to the proto without a conversion: it must be
// in the core's table (then the server and client need no code) or
// converted by hand and listed in kHandConvertedFactorOptions.
TEST(OptionFields, EveryWireFieldHasOneConversion) {
  const google::protobuf::Descriptor& wire = *pb::FactorOptions::descriptor();
  for (int i = 0; i < wire.field_count(); ++i) {
    const FieldDescriptor& field = *wire.field(i);
    const FactorOptionField* core = FindFactorOptionField(field.name());
    EXPECT_NE(core != nullptr, IsHandConverted(field.name()))
        << "options." << field.name()
        << ": add it to its family's table (core/<family>/<family>_options.h)"
           " or convert it in server/service/convert.cc and list it in "
           "kHandConvertedFactorOptions";
    if (core == nullptr) continue;
    EXPECT_FALSE(field.is_repeated()) << field.name();
    EXPECT_EQ(std::visit([](auto m) { return WireTypeOf(m); }, core->member),
              field.cpp_type())
        << "options." << field.name() << " is a " << field.cpp_type_name()
        << " on the wire";
  }
  // And nothing in the tables or the list that the wire does not have.
  for (const FactorOptionField& core : FactorOptionFields()) {
    EXPECT_NE(wire.FindFieldByName(std::string(core.name)), nullptr)
        << core.name;
  }
  for (std::string_view name : kHandConvertedFactorOptions) {
    EXPECT_NE(wire.FindFieldByName(std::string(name)), nullptr) << name;
  }
}

// Unset is the core's default; a bool field without presence cannot say
// false, so a bool option whose default is true must be `optional`.
TEST(OptionFields, ABoolThatDefaultsToTrueCanBeSentAsFalse) {
  const FactorOptions defaults;
  for (const FactorOptionField& core : FactorOptionFields()) {
    const auto* member = std::get_if<bool FactorOptions::*>(&core.member);
    if (member == nullptr || !(defaults.*(*member))) continue;
    const FieldDescriptor* field =
        pb::FactorOptions::descriptor()->FindFieldByName(
            std::string(core.name));
    ASSERT_NE(field, nullptr) << core.name;
    EXPECT_TRUE(field->has_presence())
        << "options." << core.name << " defaults to true: declare it "
        << "`optional bool` so that false reaches the server";
  }
}

// A value of the member's type that is not the core's default (nor 0, which
// a field without presence does not send).
client::OptionValue NonDefault(const FactorOptions& defaults,
                               const FactorOptionField& core) {
  return std::visit(
      [&defaults](auto m) -> client::OptionValue {
        using T = std::remove_cvref_t<decltype(defaults.*m)>;
        const T d = defaults.*m;
        if constexpr (std::is_same_v<T, bool>) {
          return !d;
        } else if constexpr (std::is_same_v<T, double>) {
          return d == 0 ? 0.25 : d * 0.5;
        } else {
          return static_cast<int64_t>(d + 1 == 0 ? d + 2 : d + 1);
        }
      },
      core.member);
}

// Reads `core`'s member of `options` as an OptionValue, for comparison.
client::OptionValue ValueOf(const FactorOptions& options,
                            const FactorOptionField& core) {
  return std::visit(
      [&options](auto m) -> client::OptionValue {
        using T = std::remove_cvref_t<decltype(options.*m)>;
        if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, double>) {
          return options.*m;
        } else {
          return static_cast<int64_t>(options.*m);
        }
      },
      core.member);
}

// client named option -> proto -> server -> core member, for every option of
// the tables, typed and as text (factorctl's flags).
TEST(OptionFields, EveryTableOptionTravelsByName) {
  const FactorOptions defaults;
  for (const FactorOptionField& core : FactorOptionFields()) {
    const client::OptionValue value = NonDefault(defaults, core);
    for (bool as_text : {false, true}) {
      client::FactorizeOptions options;
      if (as_text) {
        options.Set(
            std::string(core.name),
            std::visit(
                [](auto v) -> std::string {
                  if constexpr (std::is_same_v<decltype(v), bool>) {
                    return v ? "true" : "false";
                  } else if constexpr (std::is_same_v<decltype(v),
                                                      std::string>) {
                    return v;
                  } else if constexpr (std::is_same_v<decltype(v), double>) {
                    return absl::StrFormat("%.17g", v);
                  } else {
                    return std::to_string(v);
                  }
                },
                value));
      } else {
        options.Set(std::string(core.name), value);
      }
      absl::StatusOr<pb::FactorizeRequest> request =
          client::internal::ToFactorizeRequest("m", options);
      ASSERT_TRUE(request.ok()) << core.name << ": " << request.status();
      FactorOptions out;
      ASSERT_TRUE(CopyTableFactorOptions(request->options(), &out).ok())
          << core.name;
      EXPECT_EQ(ValueOf(out, core), value)
          << core.name << (as_text ? " (as text)" : "");
    }
  }
}

TEST(OptionFields, TheConversionValidatesWhatItCopies) {
  // Through FactorOptionsFromProto, the core's ranges still apply and name
  // the option.
  client::FactorizeOptions options;
  options.Set("pivot_threshold", 0.75);
  absl::StatusOr<pb::FactorizeRequest> request =
      client::internal::ToFactorizeRequest("m", options);
  ASSERT_TRUE(request.ok()) << request.status();
  const absl::Status s =
      FactorOptionsFromProto(pb::METHOD_LDLT, request->options()).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("options.pivot_threshold"), std::string::npos)
      << s;

  options.named = {{"pivot_threshold", 0.125}, {"sweeps", int64_t{3}}};
  request = client::internal::ToFactorizeRequest("m", options);
  ASSERT_TRUE(request.ok()) << request.status();
  absl::StatusOr<FactorOptions> o =
      FactorOptionsFromProto(pb::METHOD_JACOBI_LDLT, request->options());
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->pivot_threshold, 0.125);
  EXPECT_EQ(o->sweeps, 3);
}

// A message like FactorOptions with a field the core has no option for and
// one whose type differs from its core member's.
class StrayFields : public ::testing::Test {
 protected:
  void SetUp() override {
    google::protobuf::FileDescriptorProto file;
    file.set_name("stray.proto");
    file.set_package("stray");
    file.set_syntax("proto3");
    google::protobuf::DescriptorProto* message = file.add_message_type();
    message->set_name("Options");
    auto add = [message](const char* name, int number,
                         google::protobuf::FieldDescriptorProto::Type type) {
      google::protobuf::FieldDescriptorProto* f = message->add_field();
      f->set_name(name);
      f->set_number(number);
      f->set_type(type);
      f->set_label(google::protobuf::FieldDescriptorProto::LABEL_OPTIONAL);
    };
    add("sweeps", 1, google::protobuf::FieldDescriptorProto::TYPE_INT32);
    add("new_option", 2, google::protobuf::FieldDescriptorProto::TYPE_DOUBLE);
    add("fill_factor", 3, google::protobuf::FieldDescriptorProto::TYPE_INT32);
    add("ordering", 4, google::protobuf::FieldDescriptorProto::TYPE_INT32);
    const google::protobuf::FileDescriptor* built = pool_.BuildFile(file);
    ASSERT_NE(built, nullptr);
    descriptor_ = built->FindMessageTypeByName("Options");
  }

  // A new message of the stray type, owned by the test.
  std::unique_ptr<google::protobuf::Message> New() {
    return std::unique_ptr<google::protobuf::Message>(
        factory_.GetPrototype(descriptor_)->New());
  }

  void Set(google::protobuf::Message& m, const char* name, double v) {
    const FieldDescriptor* f = descriptor_->FindFieldByName(name);
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_DOUBLE) {
      m.GetReflection()->SetDouble(&m, f, v);
    } else {
      m.GetReflection()->SetInt32(&m, f, static_cast<int>(v));
    }
  }

  google::protobuf::DescriptorPool pool_;
  google::protobuf::DynamicMessageFactory factory_;
  const google::protobuf::Descriptor* descriptor_ = nullptr;
};

TEST_F(StrayFields, ASetFieldWithoutACoreOptionIsInternal) {
  std::unique_ptr<google::protobuf::Message> m = New();
  Set(*m, "sweeps", 5);
  Set(*m, "ordering", 2);  // listed as converted by hand: left alone
  FactorOptions out;
  ASSERT_TRUE(CopyTableFactorOptions(*m, &out).ok());
  EXPECT_EQ(out.sweeps, 5);
  EXPECT_EQ(out.ordering, FactorOptions().ordering);

  Set(*m, "new_option", 0.5);
  const absl::Status s = CopyTableFactorOptions(*m, &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_NE(s.message().find("options.new_option"), std::string::npos) << s;

  // Unset (0 without presence), it is not an error: nothing is dropped.
  Set(*m, "new_option", 0);
  EXPECT_TRUE(CopyTableFactorOptions(*m, &out).ok());
}

TEST_F(StrayFields, AFieldOfAnotherTypeThanItsMemberIsInternal) {
  std::unique_ptr<google::protobuf::Message> m = New();
  Set(*m, "fill_factor", 2);  // int32 on this wire, double in the core
  FactorOptions out;
  const absl::Status s = CopyTableFactorOptions(*m, &out);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_NE(s.message().find("options.fill_factor"), std::string::npos) << s;
}

}  // namespace
}  // namespace factord::server
