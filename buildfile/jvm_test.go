package buildfile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestResolveJVMAndDotnet: what Gradle, Maven, MSBuild (dotnet and
// msbuild) and Kotlin scripts run from their files.
func TestResolveJVMAndDotnet(t *testing.T) {
	const home = "/h"
	settings := "rootProject.name = 'shop'\ninclude 'api', ':core:db'\ninclude(\"web\")\ninclude ':../escape'\n"
	pom := `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <properties><cache.dir>${user.home}/.cache</cache.dir><tool>scripts/gen.sh</tool></properties>
  <modules><module>lib</module></modules>
  <build>
    <pluginManagement><plugins><plugin>
      <artifactId>exec-maven-plugin</artifactId>
      <configuration><workingDirectory>gen</workingDirectory></configuration>
    </plugin></plugins></pluginManagement>
    <plugins>
      <plugin><artifactId>maven-surefire-plugin</artifactId></plugin>
      <plugin>
        <artifactId>exec-maven-plugin</artifactId>
        <executions>
          <execution><phase>generate-sources</phase><goals><goal>exec</goal></goals>
            <configuration>
              <executable>${tool}</executable>
              <arguments><argument>--out</argument><argument>${cache.dir}/it's</argument></arguments>
            </configuration>
          </execution>
          <execution><goals><goal>java</goal></goals><configuration><mainClass>a.Main</mainClass></configuration></execution>
        </executions>
      </plugin>
      <plugin>
        <artifactId>maven-antrun-plugin</artifactId>
        <executions><execution><goals><goal>run</goal></goals><configuration><target>
          <property name="out" value="${project.build.directory}/x"/>
          <exec executable="curl" dir="${basedir}"><arg value="-o"/><arg value="${out}"/><arg line="-s ${env.URL}"/></exec>
          <delete dir="${out}"/>
          <script language="javascript">print(1)</script>
        </target></configuration></execution></executions>
      </plugin>
    </plugins>
  </build>
  <profiles>
    <profile><id>ci</id><activation><property><name>env.CI</name></property></activation>
      <build><plugins><plugin><artifactId>groovy-maven-plugin</artifactId>
        <executions><execution><goals><goal>execute</goal></goals><configuration><source>println "hi"</source></configuration></execution></executions>
      </plugin></plugins></build>
    </profile>
    <profile><id>off</id>
      <build><plugins><plugin><artifactId>groovy-maven-plugin</artifactId>
        <configuration><source>boom()</source></configuration>
        <executions><execution><goals><goal>execute</goal></goals></execution></executions>
      </plugin></plugins></build>
    </profile>
  </profiles>
</project>
`
	libPom := "<project><build><plugins><plugin><artifactId>gmavenplus-plugin</artifactId><executions><execution><goals><goal>execute</goal></goals>" +
		"<configuration><scripts><script>run.groovy</script></scripts></configuration></execution></executions></plugin></plugins></build></project>\n"
	cliPom := "<project><build><plugins><plugin><artifactId>exec-maven-plugin</artifactId></plugin></plugins></build></project>"
	csproj := `<Project Sdk="Microsoft.NET.Sdk">
  <Import Project="build/extra.targets" />
  <Import Project="$(MSBuildExtensionsPath)/Microsoft.Common.targets" />
  <PropertyGroup>
    <Out>$(MSBuildProjectDirectory)/out</Out>
    <Tmp Condition="'$(OS)' == 'Unix'">/tmp/x</Tmp>
  </PropertyGroup>
  <UsingTask TaskName="Hello" TaskFactory="RoslynCodeTaskFactory">
    <Task><Code Type="Fragment" Language="cs">Log.LogMessage("hi");</Code></Task>
  </UsingTask>
  <Target Name="Gen" BeforeTargets="Build">
    <Exec Command="tool --out &quot;$(Out)&quot; $(HOME) @(Compile) %24(X)" WorkingDirectory="gen" />
    <RemoveDir Directories="$(Out);$(Tmp)" />
    <WriteLinesToFile File="$(HOME)/.bashrc" Lines="a;b" />
  </Target>
</Project>
`
	tests := []struct {
		name  string
		cmd   string
		env   []string
		files fakeFiles
		want  Plan
	}{
		{name: "gradle runs the init scripts, settings, buildSrc and every included build script", cmd: "gradle test --tests x.* --offline",
			files: fakeFiles{"/h/.gradle/init.gradle": "i", "/h/.gradle/init.d/b.gradle.kts": "b", "/h/.gradle/init.d/a.gradle": "a",
				"/h/.gradle/init.d/notes.txt": "n", "/w/settings.gradle": settings, "/w/buildSrc/build.gradle.kts": "s", "/w/build.gradle": "r",
				"/w/api/build.gradle.kts": "api", "/w/core/db/build.gradle": "db", "/w/web/build.gradle": "web", "/escape/build.gradle": "x"},
			want: Plan{Runner: "gradle",
				Read: []string{"/h/.gradle/init.gradle", "/h/.gradle/init.d/", "/h/.gradle/init.d/a.gradle", "/h/.gradle/init.d/b.gradle.kts",
					"/w/settings.gradle", "/w/buildSrc/build.gradle.kts", "/w/build.gradle", "/w/api/build.gradle.kts", "/w/core/db/build.gradle", "/w/web/build.gradle"},
				Steps: []Step{
					{File: "/h/.gradle/init.gradle", Text: "i", Lang: Groovy, Dir: w},
					{File: "/h/.gradle/init.d/a.gradle", Text: "a", Lang: Groovy, Dir: w},
					{File: "/h/.gradle/init.d/b.gradle.kts", Text: "b", Lang: Kotlin, Dir: w},
					{File: "/w/settings.gradle", Text: settings, Lang: Groovy, Dir: w},
					{File: "/w/buildSrc/build.gradle.kts", Text: "s", Lang: Kotlin, Dir: "/w/buildSrc"},
					{File: "/w/build.gradle", Text: "r", Lang: Groovy, Dir: w},
					{File: "/w/api/build.gradle.kts", Text: "api", Lang: Kotlin, Dir: "/w/api"},
					{File: "/w/core/db/build.gradle", Text: "db", Lang: Groovy, Dir: "/w/core/db"},
					{File: "/w/web/build.gradle", Text: "web", Lang: Groovy, Dir: "/w/web"},
				}}},
		{name: "gradlew -I, -p and -b name the scripts", cmd: "./gradlew -I ci.gradle -p sub -b other.gradle build",
			files: fakeFiles{"/w/ci.gradle": "ci", "/w/sub/other.gradle": "o", "/w/sub/build.gradle": "no", "/w/other.gradle": "top"},
			want: Plan{Runner: "gradle", Read: []string{"/w/ci.gradle", "/w/other.gradle"}, Steps: []Step{
				{File: "/w/ci.gradle", Text: "ci", Lang: Groovy, Dir: w},
				{File: "/w/other.gradle", Text: "top", Lang: Groovy, Dir: "/w/sub"},
			}}},
		{name: "gradle --version runs nothing", cmd: "gradle --version", files: fakeFiles{"/w/build.gradle": "x"}, want: Plan{}},
		{name: "gradle with GRADLE_USER_HOME set is a problem", cmd: "gradle build", env: []string{"GRADLE_USER_HOME"},
			files: fakeFiles{"/w/build.gradle.kts": "k"},
			want: Plan{Runner: "gradle", Read: []string{"/w/build.gradle.kts"},
				Problems: []Problem{{File: "GRADLE_USER_HOME", Reason: "the command sets Gradle's user home, whose init scripts are not known"}},
				Steps:    []Step{{File: "/w/build.gradle.kts", Text: "k", Lang: Kotlin, Dir: w}}}},
		{name: "an unreadable build.gradle is a problem", cmd: "gradle build", files: fakeFiles{"/w/build.gradle": "\x00"},
			want: Plan{Runner: "gradle", Problems: []Problem{{File: "/w/build.gradle", Reason: "permission denied"}}}},

		{name: "mvn runs exec, antrun and active profiles' groovy, and the modules' plugins", cmd: "mvn -B -q compile",
			files: fakeFiles{"/w/pom.xml": pom, "/w/lib/pom.xml": libPom, "/w/lib/run.groovy": "g"},
			want: Plan{Runner: "maven", Read: []string{"/w/pom.xml", "/w/lib/pom.xml", "/w/lib/run.groovy"}, Steps: []Step{
				{File: "/w/pom.xml", Line: 16, Text: `scripts/gen.sh --out "${HOME}"/.cache'/it'\''s'`, Lang: Shell, Dir: "/w/gen"},
				{File: "/w/pom.xml", Line: 27, Text: `curl -o /w/target/x -s ${URL}`, Lang: Shell, Dir: w},
				{File: "/w/pom.xml", Line: 28, Text: `rm -rf -- /w/target/x`, Lang: Shell, Dir: w},
				{File: "/w/pom.xml", Line: 29, Text: "print(1)", Lang: "javascript", Dir: w},
				{File: "/w/pom.xml", Line: 37, Text: `println "hi"`, Lang: Groovy, Dir: w},
				{File: "/w/lib/run.groovy", Text: "g", Lang: Groovy, Dir: "/w/lib"},
			}}},
		{name: "mvn -P activates a profile", cmd: "mvn -f pom.xml -Poff validate",
			files: fakeFiles{"/w/pom.xml": "<project><profiles><profile><id>off</id><build><plugins><plugin><artifactId>groovy-maven-plugin</artifactId>" +
				"<configuration><source>boom()</source></configuration><executions><execution><goals><goal>execute</goal></goals></execution></executions>" +
				"</plugin></plugins></build></profile></profiles></project>"},
			want: Plan{Runner: "maven", Read: []string{"/w/pom.xml"}, Steps: []Step{
				{File: "/w/pom.xml", Line: 1, Text: "boom()", Lang: Groovy, Dir: w},
			}}},
		{name: "mvn exec:exec runs the plugin's configuration and -D's executable", cmd: "mvn exec:exec -Dexec.executable=rm -Dexec.args=-rf_x",
			files: fakeFiles{"/w/pom.xml": cliPom},
			want: Plan{Runner: "maven", Read: []string{"/w/pom.xml"}, Steps: []Step{
				{File: "/w/pom.xml", Line: 1, Text: "rm -rf_x", Lang: Shell, Dir: w},
			}}},
		{name: "mvn -v runs nothing", cmd: "mvn -v", files: fakeFiles{"/w/pom.xml": pom}, want: Plan{}},
		{name: "a pom that is not XML is a problem", cmd: "mvn package", files: fakeFiles{"/w/pom.xml": "<project><build></project>"},
			want: Plan{Runner: "maven", Read: []string{"/w/pom.xml"}, Problems: []Problem{{File: "/w/pom.xml",
				Reason: "the file cannot be read as XML: XML syntax error on line 1: element <build> closed by </project>"}}}},
		{name: "an exec plugin that names no executable is a problem", cmd: "mvn package",
			files: fakeFiles{"/w/pom.xml": "<project><build><plugins><plugin><artifactId>exec-maven-plugin</artifactId><executions><execution><goals><goal>exec</goal></goals></execution></executions></plugin></plugins></build></project>"},
			want:  Plan{Runner: "maven", Read: []string{"/w/pom.xml"}, Problems: []Problem{{File: "/w/pom.xml", Reason: "exec-maven-plugin runs an executable the pom does not name"}}}},
		{name: "antrun calling another Ant file is a problem", cmd: "mvn package",
			files: fakeFiles{"/w/pom.xml": "<project><build><plugins><plugin><artifactId>maven-antrun-plugin</artifactId><executions><execution><configuration><target><ant antfile=\"b.xml\"/></target></configuration></execution></executions></plugin></plugins></build></project>"},
			want:  Plan{Runner: "maven", Read: []string{"/w/pom.xml"}, Problems: []Problem{{File: "/w/pom.xml", Reason: "maven-antrun-plugin runs another Ant file, which is not read"}}}},
		{name: "a pom with surefire only runs nothing of its own", cmd: "mvn test",
			files: fakeFiles{"/w/pom.xml": "<project><build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId></plugin></plugins></build></project>"},
			want:  Plan{Runner: "maven", Read: []string{"/w/pom.xml"}}},
		{name: "mvn without a pom runs nothing", cmd: "mvn package", files: fakeFiles{}, want: Plan{Runner: "maven"}},

		{name: "dotnet build runs the targets of the project and Directory.Build files, with properties expanded", cmd: "dotnet build -c Release",
			files: fakeFiles{"/w/App.csproj": csproj, "/w/build/extra.targets": "<Project><Target Name=\"X\"><Exec Command=\"echo $(MSBuildThisFileDirectory)\"/></Target></Project>",
				"/Directory.Build.props":     "<Project><PropertyGroup><Out>$(HOME)</Out></PropertyGroup></Project>",
				"/w/Directory.Build.targets": "<Project><Target Name=\"T\"><Delete Files=\"a.txt\"/><DownloadFile SourceUrl=\"https://x.example/f\"/></Target></Project>",
				"/w/README.md":               "r"},
			want: Plan{Runner: "msbuild", Read: []string{"/w/", "/Directory.Build.props", "/w/App.csproj", "/w/build/extra.targets", "/w/Directory.Build.targets"}, Steps: []Step{
				{File: "/w/build/extra.targets", Line: 1, Text: "echo /w/build/", Lang: Shell, Dir: w},
				{File: "/w/App.csproj", Line: 9, Text: `Log.LogMessage("hi");`, Lang: CSharp, Dir: w},
				{File: "/w/App.csproj", Line: 12, Text: `tool --out "/w/out" ${HOME} ${MSBuild_Compile} $(X)`, Lang: Shell, Dir: "/w/gen"},
				{File: "/w/App.csproj", Line: 13, Text: `rm -rf -- /w/out`, Lang: Shell, Dir: w},
				{File: "/w/App.csproj", Line: 13, Text: `rm -rf -- "${Tmp}"`, Lang: Shell, Dir: w},
				{File: "/w/App.csproj", Line: 14, Text: `printf '%s\n' a b >> "${HOME}"/.bashrc`, Lang: Shell, Dir: w},
				{File: "/w/Directory.Build.targets", Line: 1, Text: "rm -f -- a.txt", Lang: Shell, Dir: w},
				{File: "/w/Directory.Build.targets", Line: 1, Text: "curl -fsSLO --output-dir . https://x.example/f", Lang: Shell, Dir: w},
			}}},
		{name: "dotnet test of a named project; -p sets a property", cmd: "dotnet test tests/T/T.csproj -p:Dest=/tmp/d --filter Category=Unit",
			files: fakeFiles{"/w/tests/T/T.csproj": "<Project><PropertyGroup><Dest>x</Dest></PropertyGroup><Target Name=\"A\"><Exec Command=\"rm -rf $(Dest)\"/></Target></Project>"},
			want: Plan{Runner: "msbuild", Read: []string{"/w/tests/T/T.csproj"}, Steps: []Step{
				{File: "/w/tests/T/T.csproj", Line: 1, Text: "rm -rf /tmp/d", Lang: Shell, Dir: "/w/tests/T"},
			}}},
		{name: "msbuild of a solution builds its projects", cmd: "msbuild /t:Build /p:A=1 App.sln",
			files: fakeFiles{"/w/App.sln": "Project(\"{FAE04EC0}\") = \"Lib\", \"src\\Lib\\Lib.csproj\", \"{1}\"\nEndProject\n",
				"/w/src/Lib/Lib.csproj": "<Project><Target Name=\"A\"><Exec Command=\"echo $(A)\"/></Target></Project>"},
			want: Plan{Runner: "msbuild", Read: []string{"/w/App.sln", "/w/src/Lib/Lib.csproj"}, Steps: []Step{
				{File: "/w/src/Lib/Lib.csproj", Line: 1, Text: "echo 1", Lang: Shell, Dir: "/w/src/Lib"},
			}}},
		{name: "the SDK's output directories are in the project's; -o and the environment change them", cmd: "dotnet publish -c Release -o ../dist",
			env:   []string{"BaseIntermediateOutputPath"},
			files: fakeFiles{"/w/A.csproj": "<Project><Target Name=\"C\"><RemoveDir Directories=\"$(BaseOutputPath);$(IntermediateOutputPath);$(PublishDir);$(BaseIntermediateOutputPath)\"/></Target></Project>"},
			want: Plan{Runner: "msbuild", Read: []string{"/w/", "/w/A.csproj"}, Steps: []Step{
				{File: "/w/A.csproj", Line: 1, Text: "rm -rf -- /w/bin/", Lang: Shell, Dir: w},
				{File: "/w/A.csproj", Line: 1, Text: "rm -rf -- /w/obj/Release/", Lang: Shell, Dir: w},
				{File: "/w/A.csproj", Line: 1, Text: "rm -rf -- /dist/", Lang: Shell, Dir: w},
				{File: "/w/A.csproj", Line: 1, Text: `rm -rf -- "${BaseIntermediateOutputPath}"`, Lang: Shell, Dir: w},
			}}},
		{name: "MSBuild's backslashes in paths are slashes", cmd: "dotnet build",
			files: fakeFiles{"/w/A.csproj": "<Project><PropertyGroup><SpaRoot>ClientApp\\</SpaRoot></PropertyGroup><Target Name=\"A\">" +
				"<Exec Command=\"npm ci\" WorkingDirectory=\"$(SpaRoot)\"/><Delete Files=\"$(SpaRoot)dist\\x.js\"/></Target></Project>"},
			want: Plan{Runner: "msbuild", Read: []string{"/w/", "/w/A.csproj"}, Steps: []Step{
				{File: "/w/A.csproj", Line: 1, Text: "npm ci", Lang: Shell, Dir: "/w/ClientApp"},
				{File: "/w/A.csproj", Line: 1, Text: "rm -f -- ClientApp/dist/x.js", Lang: Shell, Dir: w},
			}}},
		{name: "dotnet watch builds", cmd: "dotnet watch --project A.csproj",
			files: fakeFiles{"/w/A.csproj": "<Project><Target Name=\"A\"><Exec Command=\"echo\"/></Target></Project>"},
			want: Plan{Runner: "msbuild", Read: []string{"/w/A.csproj"}, Steps: []Step{
				{File: "/w/A.csproj", Line: 1, Text: "echo", Lang: Shell, Dir: w},
			}}},
		{name: "a csproj with no Exec runs nothing", cmd: "dotnet build", files: fakeFiles{"/w/A.csproj": "<Project Sdk=\"Microsoft.NET.Sdk\"/>"},
			want: Plan{Runner: "msbuild", Read: []string{"/w/", "/w/A.csproj"}}},
		{name: "dotnet test of an assembly, dotnet nuget and dotnet --info run nothing", cmd: "dotnet test bin/T.dll",
			files: fakeFiles{"/w/A.csproj": "<Project/>"}, want: Plan{}},
		{name: "dotnet nuget runs nothing", cmd: "dotnet nuget locals all --list", files: fakeFiles{"/w/A.csproj": "<Project/>"}, want: Plan{}},
		{name: "an MSBuild file with an entity it does not define is a problem", cmd: "dotnet build A.csproj",
			files: fakeFiles{"/w/A.csproj": "<!DOCTYPE p [<!ENTITY e SYSTEM \"/etc/passwd\">]><Project>&e;</Project>"},
			want: Plan{Runner: "msbuild", Read: []string{"/w/A.csproj"}, Problems: []Problem{{File: "/w/A.csproj",
				Reason: "the file cannot be read as XML: XML syntax error on line 1: invalid character entity &e;"}}}},

		{name: "kotlinc -script runs the script", cmd: "kotlinc -script scripts/c.main.kts", files: fakeFiles{"/w/scripts/c.main.kts": "k"},
			want: Plan{Runner: "kotlin", Read: []string{"/w/scripts/c.main.kts"}, Steps: []Step{
				{File: "/w/scripts/c.main.kts", Text: "k", Lang: Kotlin, Dir: w},
			}}},
		{name: "kotlin FILE.main.kts runs it", cmd: "kotlin -cp lib.jar x.main.kts a.main.kts", files: fakeFiles{"/w/x.main.kts": "x", "/w/a.main.kts": "a"},
			want: Plan{Runner: "kotlin", Read: []string{"/w/x.main.kts"}, Steps: []Step{
				{File: "/w/x.main.kts", Text: "x", Lang: Kotlin, Dir: w},
			}}},
		{name: "kotlinc compiling sources runs none", cmd: "kotlinc src/Main.kt -include-runtime -d build/app.jar", files: fakeFiles{"/w/src/Main.kt": "fun main() {}"},
			want: Plan{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := strings.Fields(tt.cmd)
			checkResolved(t, tt.cmd, Resolve(Invocation{Name: f[0], Args: f[1:], Dir: w, Home: home, Env: tt.env}, tt.files), tt.want, tt.files)
		})
	}
}

// TestGradleIncludes: the literal project paths of include statements,
// none that leaves the root.
func TestGradleIncludes(t *testing.T) {
	got := gradleIncludes("include 'a', \":b:c\"\n  include(\"d\")\ninclude '../x', \"$p\", '/abs'\nincludeBuild 'e'\n// include 'f'\n")
	want := []string{"a", "b/c", "d"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("gradleIncludes (-want +got):\n%s", diff)
	}
}

// TestMSBuildSwitch: options and paths on an msbuild or dotnet line.
func TestMSBuildSwitch(t *testing.T) {
	for _, tc := range []struct {
		word, name, value string
		ok                bool
	}{
		{"-p:A=1", "p", "A=1", true}, {"/t:Build", "t", "Build", true}, {"--configuration=Release", "configuration", "Release", true},
		{"-c", "c", "", true}, {"/w/App.csproj", "", "", false}, {"App.csproj", "", "", false}, {"./x.sln", "", "", false},
	} {
		name, value, ok := msbuildSwitch(tc.word)
		if name != tc.name || value != tc.value || ok != tc.ok {
			t.Errorf("msbuildSwitch(%q) = %q, %q, %v; want %q, %q, %v", tc.word, name, value, ok, tc.name, tc.value, tc.ok)
		}
	}
}
